import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { AuthCard, AuthField, NewPasswordFields, FormErrors, keepRetryAfter, useClearedAfterReply } from "~/components/auth-form";
import { authLabels, authNotices, signupPage } from "~/content/auth";
import { registerAccount } from "~/models/account.server";
import { requireAnonymous } from "~/models/session.server";
import { signupSchema } from "~/utils/account-validation";
import { formRefusal, readFormSubmission } from "~/utils/form-body.server";
import { isSpam } from "~/utils/honeypot.server";
import { log } from "~/utils/log.server";
import { pageMeta } from "~/utils/meta";
import { redirectWithSuccess } from "~/utils/toast.server";

const PASSWORD_FIELDS = ["password", "confirmPassword"];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const form = await readFormSubmission(request, { schema: signupSchema });
  if (!form.ok) return json({ result: formRefusal(form.message) }, { status: form.status });
  const { formData, submission } = form;
  // A bot gets the same answer as a person, so it learns nothing; nothing is stored or sent.
  if (await isSpam(formData)) {
    log("warn", "signup.honeypot", { ip: context.clientIp });
    return redirectWithSuccess("/financing/login", authNotices.verificationSent);
  }

  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: PASSWORD_FIELDS }) }, { status: 400 });
  }

  const { email, password } = submission.value;
  const outcome = await registerAccount({ email, password, ip: context.clientIp });
  if (!outcome.ok) {
    const fieldErrors = outcome.fieldErrors;
    return json(
      {
        result: submission.reply({
          ...(fieldErrors ? { fieldErrors } : { formErrors: [outcome.message] }),
          hideFields: PASSWORD_FIELDS,
        }),
      },
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined,
      },
    );
  }
  return redirectWithSuccess("/financing/login", authNotices.verificationSent);
}

export const meta: MetaFunction = () => pageMeta(signupPage.title, signupPage.description);

export const headers = keepRetryAfter;

export default function SignupPage() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "signup",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signupSchema }),
  });
  useClearedAfterReply(form.id, PASSWORD_FIELDS, actionData?.result);

  return (
    <div className="auth-page">
      <AuthCard heading={signupPage.heading}>
        <Form method="post" {...getFormProps(form)}>
          <HoneypotInputs />
          <FormErrors id={form.errorId} errors={form.errors} />
          <AuthField field={fields.email} label={authLabels.email} type="email" autoComplete="email" />
          <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
          <button type="submit" className="button">
            {signupPage.submit}
          </button>
        </Form>
        <div className="auth-links">
          <p>
            {signupPage.haveAccount} <Link to="/financing/login">{signupPage.signInLink}</Link>
          </p>
        </div>
        <section className="auth-terms" aria-labelledby="auth-terms-heading">
          <h2 id="auth-terms-heading">{signupPage.termsHeading}</h2>
          <p>{signupPage.terms}</p>
        </section>
      </AuthCard>
    </div>
  );
}
