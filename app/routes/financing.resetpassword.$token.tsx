import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard, AuthField, NewPasswordFields, FormErrors, keepRetryAfter, useClearedAfterReply } from "~/components/auth-form";
import { authLabels, authNotices, resetPasswordPage } from "~/content/auth";
import { resetPassword } from "~/models/account.server";
import { resetPasswordSchema } from "~/utils/account-validation";
import { formRefusal, readFormSubmission } from "~/utils/form-body.server";
import { pageMeta } from "~/utils/meta";
import { redirectWithSuccess } from "~/utils/toast.server";

const PASSWORD_FIELDS = ["password", "confirmPassword"];
const DONE_PARAM = "done";

/**
 * The token in the URL is this page's guard, not the session: whoever holds
 * the e-mailed link may reset, signed in or not, and the reset ends every
 * session of the account anyway.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return json({ done: new URL(request.url).searchParams.has(DONE_PARAM) });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const token = params.token ?? "";
  const form = await readFormSubmission(request, { schema: resetPasswordSchema });
  if (!form.ok) return json({ result: formRefusal(form.message), linkRefused: false }, { status: form.status });
  const { submission } = form;
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: PASSWORD_FIELDS }), linkRefused: false }, { status: 400 });
  }

  const outcome = await resetPassword({ token, password: submission.value.password, ip: context.clientIp });
  if (!outcome.ok) {
    const fieldErrors = outcome.fieldErrors;
    return json(
      {
        result: submission.reply({
          ...(fieldErrors ? { fieldErrors } : { formErrors: [outcome.message] }),
          hideFields: PASSWORD_FIELDS,
        }),
        linkRefused: !fieldErrors && outcome.status !== 429,
      },
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined,
      },
    );
  }
  // The used link now only shows 'Back to login'; a reload cannot post again.
  return redirectWithSuccess(`/financing/resetpassword/${encodeURIComponent(token)}?${DONE_PARAM}`, authNotices.passwordReset);
}

export const meta: MetaFunction = () => pageMeta(resetPasswordPage.title, resetPasswordPage.description);

export const headers = keepRetryAfter;

export default function ResetPasswordPage() {
  const { done } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  });
  useClearedAfterReply(form.id, PASSWORD_FIELDS, actionData?.result);

  if (done) {
    return (
      <div className="auth-page">
        <AuthCard heading={resetPasswordPage.heading} intro={resetPasswordPage.done}>
          <Link to="/financing/login" className="button">
            {resetPasswordPage.backToLogin}
          </Link>
        </AuthCard>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <AuthCard heading={resetPasswordPage.heading} intro={resetPasswordPage.intro}>
        <Form method="post" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={form.errors} />
          <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
          <button type="submit" className="button">
            {resetPasswordPage.submit}
          </button>
        </Form>
        {actionData?.linkRefused ? (
          <div className="auth-links">
            <p>
              <Link to="/financing/forgotpassword">{resetPasswordPage.forgotLink}</Link>
            </p>
          </div>
        ) : null}
      </AuthCard>
    </div>
  );
}
