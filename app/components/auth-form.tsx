import type { ReactNode } from "react";
import { Field } from "~/components/form-field";
import { authLabels } from "~/content/account-pages/common";
import { validationMessages } from "~/content/validation-messages";
import type { BoundField } from "~/hooks/use-live-validation";

/** The card every account page sits in: a heading, an optional intro, the form. */
export function AuthCard({ heading, intro, children }: { heading: string; intro?: string; children: ReactNode }) {
  return (
    <section className="auth-card" aria-labelledby="auth-card-heading">
      <h1 id="auth-card-heading">{heading}</h1>
      {intro ? <p className="auth-card__intro">{intro}</p> : null}
      {children}
    </section>
  );
}

/** The e-mail field of the account forms. */
export function EmailField({ field }: { field: BoundField }) {
  return (
    <Field
      {...field}
      label={authLabels.email}
      type="email"
      autoComplete="email"
      required
      data-missing={validationMessages.emailInvalid}
      data-invalid={validationMessages.emailInvalid}
    />
  );
}

/** The password field of the login form: only its presence is checked before the hash decides. */
export function CurrentPasswordField({ field }: { field: BoundField }) {
  return (
    <Field
      {...field}
      label={authLabels.password}
      type="password"
      autoComplete="current-password"
      required
      data-missing={validationMessages.passwordEmpty}
    />
  );
}
