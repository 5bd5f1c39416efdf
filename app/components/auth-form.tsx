import type { HeadersFunction } from "@remix-run/node";
import type { ReactNode } from "react";
import { Field } from "~/components/form-field";
import { authLabels } from "~/content/account-pages/common";
import { PASSWORD_MIN_LENGTH, validationMessages } from "~/utils/account-validation";
import type { BoundField } from "~/utils/live-validation";

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

/** A new password and its confirmation, as sign-up and password reset ask for them. */
export function NewPasswordFields({ password, confirmPassword }: { password: BoundField; confirmPassword: BoundField }) {
  return (
    <>
      <Field
        {...password}
        label={authLabels.password}
        type="password"
        autoComplete="new-password"
        hint={authLabels.newPasswordHint}
        required
        minLength={PASSWORD_MIN_LENGTH}
        data-missing={validationMessages.passwordEmpty}
        data-short={validationMessages.passwordTooShort}
      />
      <Field
        {...confirmPassword}
        label={authLabels.confirmPassword}
        type="password"
        autoComplete="new-password"
        data-match={password.name}
        data-mismatch={validationMessages.passwordsDoNotMatch}
      />
    </>
  );
}

/**
 * The account pages' `headers`: a throttled answer (429) keeps its Retry-After
 * when the page itself is the response, i.e. a form posted without JavaScript.
 */
export const keepRetryAfter: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};
