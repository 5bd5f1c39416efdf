import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-form";
import { FormErrors } from "~/components/form-field";
import { NewPasswordFields } from "~/components/new-password-fields";
import { accountMessages } from "~/content/account-messages";
import { authNotices } from "~/content/account-pages/notices.server";
import { resetPasswordPage } from "~/content/account-pages/reset-password";
import { useLiveValidation } from "~/hooks/use-live-validation";
import { formRefusal, readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { keepRetryAfter, refusalInit } from "~/http/retry-after";
import { redirectWithSuccess } from "~/http/toast.server";
import { pageMeta } from "~/lib/meta";
import { resetPasswordSchema } from "~/models/account/account-schemas.server";
import { findOneTimeTokenUser } from "~/models/account/one-time-token.server";
import { resetPassword } from "~/models/account/password-reset.server";

const PASSWORD_FIELDS = ["password", "confirmPassword"];
const DONE_PARAM = "done";

/**
 * The token in the URL is this page's guard, not the session: whoever holds
 * the e-mailed link may reset, signed in or not, and the reset ends every
 * session of the account anyway. A link that is unknown, used or expired is
 * refused when the page opens, before anyone types a new password for nothing.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  if (new URL(request.url).searchParams.has(DONE_PARAM)) return json({ screen: "done" as const });
  const linkValid = (await findOneTimeTokenUser(params.token, "reset")) !== null;
  return linkValid ? json({ screen: "form" as const }) : json({ screen: "refused" as const }, { status: 400 });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const token = params.token ?? "";
  const body = await readFormBody(request);
  if (!body.ok) return json({ result: formRefusal(body.message), linkRefused: false }, { status: body.status });
  const submission = parseSubmission(body.formData, resetPasswordSchema);
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: PASSWORD_FIELDS }), linkRefused: false }, { status: 400 });
  }

  const outcome = await resetPassword({ token, password: submission.value.password, ip: context.clientIp });
  if (!outcome.ok) {
    return json(
      {
        result: submission.reply({ formErrors: [outcome.message], hideFields: PASSWORD_FIELDS }),
        linkRefused: outcome.status !== 429,
      },
      refusalInit(outcome),
    );
  }
  // The used link now only shows 'Back to login'; a reload cannot post again.
  return redirectWithSuccess(
    `/financing/resetpassword/${encodeURIComponent(token)}?${DONE_PARAM}`,
    authNotices.passwordReset,
  );
}

export const meta: MetaFunction = () => pageMeta(resetPasswordPage.title, resetPasswordPage.description);

export const headers = keepRetryAfter;

export default function ResetPasswordPage() {
  const { screen } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { formProps, formErrors, fieldProps } = useLiveValidation("reset-password", actionData?.result);

  if (screen === "refused") {
    return (
      <div className="auth-page">
        <AuthCard heading={resetPasswordPage.heading}>
          <p role="alert">{accountMessages.resetLinkInvalid}</p>
          <Link to="/financing/forgotpassword" className="button">
            {resetPasswordPage.forgotLink}
          </Link>
        </AuthCard>
      </div>
    );
  }

  if (screen === "done") {
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
        <Form method="post" {...formProps}>
          <FormErrors id="reset-password-form-error" errors={formErrors} />
          <NewPasswordFields password={fieldProps("password")} confirmPassword={fieldProps("confirmPassword")} />
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
