import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { AuthCard, AuthField, FormErrors, keepRetryAfter } from "~/components/auth-form";
import { authLabels, authNotices, resendVerificationPage } from "~/content/auth";
import { resendVerificationEmail } from "~/models/account.server";
import { requireAnonymous } from "~/models/session.server";
import { forgotPasswordSchema as resendVerificationSchema } from "~/utils/account-validation";
import { isSpam } from "~/utils/honeypot.server";
import { log } from "~/utils/log.server";
import { pageMeta } from "~/utils/meta";
import { redirectWithSuccess } from "~/utils/toast.server";

/** 'Send the verification e-mail again': from the login page's refusal, or from a refused link. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await request.formData();
  if (await isSpam(formData)) {
    log("warn", "resend-verification.honeypot", { ip: context.clientIp });
    return redirectWithSuccess("/financing/login", authNotices.verificationSent);
  }

  const submission = parseWithZod(formData, { schema: resendVerificationSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply() }, { status: 400 });
  }

  // The same answer whether the address is unknown, unverified or verified.
  const outcome = await resendVerificationEmail({ email: submission.value.email, ip: context.clientIp });
  if (!outcome.ok) {
    return json(
      { result: submission.reply({ formErrors: [outcome.message] }) },
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined,
      },
    );
  }
  return redirectWithSuccess("/financing/login", authNotices.verificationSent);
}

export const meta: MetaFunction = () => pageMeta(resendVerificationPage.title, resendVerificationPage.description);

export const headers = keepRetryAfter;

export default function ResendVerificationPage() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "resend-verification",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resendVerificationSchema }),
  });

  return (
    <div className="auth-page">
      <AuthCard heading={resendVerificationPage.heading} intro={resendVerificationPage.intro}>
        <Form method="post" {...getFormProps(form)}>
          <HoneypotInputs />
          <FormErrors id={form.errorId} errors={form.errors} />
          <AuthField field={fields.email} label={authLabels.email} type="email" autoComplete="email" />
          <button type="submit" className="button">
            {resendVerificationPage.submit}
          </button>
        </Form>
        <div className="auth-links">
          <p>
            <Link to="/financing/login">{resendVerificationPage.backLink}</Link>
          </p>
        </div>
      </AuthCard>
    </div>
  );
}
