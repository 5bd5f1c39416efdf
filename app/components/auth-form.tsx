import { authLabels } from "~/content/auth";
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { HeadersFunction } from "@remix-run/node";
import { useEffect, type ReactNode } from "react";

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

type FieldProps = {
  field: FieldMetadata<string>;
  label: string;
  type: "email" | "password" | "text";
  autoComplete: string;
  /** A hint kept beside the field and read out with it. */
  hint?: string;
};

/**
 * A labelled input with its messages beside it. The messages come from Conform:
 * from the browser's own check with JavaScript, from the server's reply without.
 */
export function AuthField({ field, label, type, autoComplete, hint }: FieldProps) {
  const hintId = `${field.id}-hint`;
  const { key, ...inputProps } = getInputProps(field, {
    type,
    ariaDescribedBy: hint ? hintId : undefined,
  });
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <input key={key} {...inputProps} autoComplete={autoComplete} aria-required="true" />
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A new password and its confirmation, as sign-up and password reset ask for them. */
export function NewPasswordFields({
  password,
  confirmPassword,
}: {
  password: FieldProps["field"];
  confirmPassword: FieldProps["field"];
}) {
  return (
    <>
      <AuthField
        field={password}
        label={authLabels.password}
        type="password"
        autoComplete="new-password"
        hint={authLabels.newPasswordHint}
      />
      <AuthField field={confirmPassword} label={authLabels.confirmPassword} type="password" autoComplete="new-password" />
    </>
  );
}

/**
 * Always rendered, one line tall when empty: a message appearing on blur must
 * not push the submit button away between the press and the release of a click.
 */
export function FieldErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  return (
    <div id={id} className="field__errors">
      {errors?.map((message) => (
        <p key={message} className="field__error">
          {message}
        </p>
      ))}
    </div>
  );
}

/** Errors about the whole form (a wrong password, a refused link), announced when they appear. */
export function FormErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  return (
    <div id={id} className="form-error" role="alert">
      {errors?.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

/**
 * After the server's answer, empties the password fields, as a page reload
 * does without JavaScript: a refused password is never kept in the page.
 */
export function useClearedAfterReply(formId: string, fieldNames: string[], reply: unknown) {
  const names = fieldNames.join(" ");
  useEffect(() => {
    if (!reply) return;
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    for (const name of names.split(" ")) {
      const input = form.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = "";
    }
  }, [reply, formId, names]);
}

/**
 * The account pages' `headers`: a throttled answer (429) keeps its Retry-After
 * when the page itself is the response, i.e. a form posted without JavaScript.
 */
export const keepRetryAfter: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};
