import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { AuthCard, AuthField, FormErrors, keepRetryAfter } from "~/components/auth-form";
import { authLabels, authNotices, forgotPasswordPage } from "~/content/auth";
import { requestPasswordReset } from "~/models/account.server";
import { requireAnonymous } from "~/models/session.server";
import { forgotPasswordSchema } from "~/utils/account-validation";
import { isSpam } from "~/utils/honeypot.server";
import { log } from "~/utils/log.server";
import { pageMeta } from "~/utils/meta";
import { redirectWithSuccess } from "~/utils/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await request.formData();
  if (await isSpam(formData)) {
    log("warn", "forgot-password.honeypot", { ip: context.clientIp });
    return redirectWithSuccess("/financing/login", authNotices.resetSent);
  }

  const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply() }, { status: 400 });
  }

  // The same answer whether or not the address has an account (DESIGN.md section 5).
  const outcome = await requestPasswordReset({ email: submission.value.email, ip: context.clientIp });
  if (!outcome.ok) {
    return json(
      { result: submission.reply({ formErrors: [outcome.message] }) },
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined,
      },
    );
  }
  return redirectWithSuccess("/financing/login", authNotices.resetSent);
}

export const meta: MetaFunction = () => pageMeta(forgotPasswordPage.title, forgotPasswordPage.description);

export const headers = keepRetryAfter;

export default function ForgotPasswordPage() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  });

  return (
    <div className="auth-page">
      <AuthCard heading={forgotPasswordPage.heading} intro={forgotPasswordPage.intro}>
        <Form method="post" {...getFormProps(form)}>
          <HoneypotInputs />
          <FormErrors id={form.errorId} errors={form.errors} />
          <AuthField field={fields.email} label={authLabels.email} type="email" autoComplete="email" />
          <button type="submit" className="button">
            {forgotPasswordPage.submit}
          </button>
        </Form>
        <div className="auth-links">
          <p>
            <Link to="/financing/login">{forgotPasswordPage.backLink}</Link>
          </p>
        </div>
      </AuthCard>
    </div>
  );
}
