import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { AuthCard, AuthField, FormErrors, keepRetryAfter, useClearedAfterReply } from "~/components/auth-form";
import { authLabels, authNotices, loginPage } from "~/content/auth";
import { logIn } from "~/models/account.server";
import { createUserSession, requireAnonymous } from "~/models/session.server";
import { loginSchema } from "~/utils/account-validation";
import { formRefusal, readFormSubmission } from "~/utils/form-body.server";
import { pageMeta } from "~/utils/meta";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const form = await readFormSubmission(request, { schema: loginSchema });
  if (!form.ok) return json({ result: formRefusal(form.message), unverifiedEmail: null }, { status: form.status });
  const { submission } = form;
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: ["password"] }), unverifiedEmail: null }, { status: 400 });
  }

  const outcome = await logIn({ ...submission.value, ip: context.clientIp });
  if (!outcome.ok) {
    return json(
      {
        result: submission.reply({ formErrors: [outcome.message], hideFields: ["password"] }),
        // Only after the right password, so it tells a stranger nothing.
        unverifiedEmail: outcome.code === "unverified" ? submission.value.email : null,
      },
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined,
      },
    );
  }

  return createUserSession({
    userId: outcome.user.id,
    request,
    redirectTo: "/financing",
    toast: { message: authNotices.loggedIn, type: "success" },
  });
}

export const meta: MetaFunction = () => pageMeta(loginPage.title, loginPage.description);

export const headers = keepRetryAfter;

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "login",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });
  useClearedAfterReply(form.id, ["password"], actionData?.result);

  return (
    <div className="auth-page">
      <AuthCard heading={loginPage.heading} intro={loginPage.intro}>
        {/* SPEC's hidden 'Remember Password' checkbox did nothing, so it is left out (sessions are decided by DESIGN.md section 5). */}
        <Form method="post" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={form.errors} />
          <AuthField field={fields.email} label={authLabels.email} type="email" autoComplete="email" />
          <AuthField field={fields.password} label={authLabels.password} type="password" autoComplete="current-password" />
          <button type="submit" className="button">
            {loginPage.submit}
          </button>
        </Form>
        {actionData?.unverifiedEmail ? <ResendVerification email={actionData.unverifiedEmail} /> : null}
        <div className="auth-links">
          <p>
            {loginPage.noAccount} <Link to="/financing/signup">{loginPage.createLink}</Link>
          </p>
          <p>
            <Link to="/financing/forgotpassword">{loginPage.forgotLink}</Link>
          </p>
        </div>
      </AuthCard>
    </div>
  );
}

/** Beside the refusal of an unverified account: one click mails a fresh link. */
function ResendVerification({ email }: { email: string }) {
  return (
    <Form method="post" action="/financing/verify-email" className="auth-resend">
      <HoneypotInputs />
      <input type="hidden" name="email" value={email} />
      <p>{loginPage.resendIntro}</p>
      <button type="submit" className="button button--secondary">
        {loginPage.resendButton}
      </button>
    </Form>
  );
}
