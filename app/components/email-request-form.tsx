import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "@remix-run/react";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { AuthCard, AuthField, FormErrors } from "~/components/auth-form";
import { authLabels } from "~/content/auth";
import { forgotPasswordSchema as emailRequestSchema } from "~/utils/account-validation";

type Page = { heading: string; intro: string; submit: string; backLink: string };

/** The page that asks for a link by e-mail: one e-mail field and a button. */
export function EmailRequestForm({ id, page, lastResult }: { id: string; page: Page; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id,
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: emailRequestSchema }),
  });

  return (
    <div className="auth-page">
      <AuthCard heading={page.heading} intro={page.intro}>
        <Form method="post" {...getFormProps(form)}>
          <HoneypotInputs />
          <FormErrors id={form.errorId} errors={form.errors} />
          <AuthField field={fields.email} label={authLabels.email} type="email" autoComplete="email" />
          <button type="submit" className="button">
            {page.submit}
          </button>
        </Form>
        <div className="auth-links">
          <p>
            <Link to="/financing/login">{page.backLink}</Link>
          </p>
        </div>
      </AuthCard>
    </div>
  );
}
