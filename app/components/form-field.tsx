import type { ComponentPropsWithoutRef } from "react";

type FieldProps = ComponentPropsWithoutRef<"input"> &
  ComponentPropsWithoutRef<"textarea"> & {
    id: string;
    name: string;
    label: string;
    /** The field's messages (useLiveValidation's fieldProps gives them). */
    errors?: string[];
    /** A hint kept beside the field and read out with it. */
    hint?: string;
    multiline?: boolean;
  };

/**
 * A labelled input (or textarea) with its messages beside it, wired for
 * assistive technology: aria-invalid and aria-describedby while a message
 * shows. The message slot is always rendered, so a message appearing on blur
 * does not move what is below it between the press and the release of a
 * click. Rules for the browser's check go on the control as attributes
 * (required, type, minLength, data-missing and friends: see live-validation.ts).
 */
export function Field({ label, errors, hint, multiline, ...control }: FieldProps) {
  const errorId = `${control.id}-error`;
  const hintId = `${control.id}-hint`;
  const describedBy = [errors ? errorId : "", hint ? hintId : ""].join(" ").trim() || undefined;
  const Control = multiline ? "textarea" : "input";
  return (
    <div className="field">
      <label htmlFor={control.id}>{label}</label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <Control {...control} aria-invalid={errors ? true : undefined} aria-describedby={describedBy} />
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

function FieldErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
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
