import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { AuthCard, EmailField } from "~/components/auth-form";
import { FormErrors } from "~/components/form-field";
import { HoneypotFields } from "~/components/honeypot-fields";
import { useLiveValidation } from "~/hooks/use-live-validation";
import type { FormReply } from "~/lib/form-reply";

type Page = { heading: string; intro: string; submit: string; backLink: string };

/** The page that asks for a link by e-mail: one e-mail field and a button. */
export function EmailRequestForm({
  id,
  page,
  lastResult,
  defaultEmail,
  lead,
}: {
  id: string;
  page: Page;
  lastResult?: FormReply;
  /** The address to offer when nothing has been posted yet. */
  defaultEmail?: string;
  /** What the page says before its form. */
  lead?: ReactNode;
}) {
  const { formProps, formErrors, fieldProps } = useLiveValidation(id, lastResult);
  const email = fieldProps("email");

  return (
    <div className="auth-page">
      <AuthCard heading={page.heading} intro={lead ? undefined : page.intro}>
        {lead}
        <Form method="post" {...formProps}>
          <HoneypotFields />
          <FormErrors id={`${id}-form-error`} errors={formErrors} />
          <EmailField field={{ ...email, defaultValue: email.defaultValue ?? defaultEmail }} />
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
