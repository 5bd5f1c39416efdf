import { CODE_MAX_LENGTH, codeMessages } from "~/content/second-factor";
import type { BoundField } from "~/hooks/use-live-validation";
import { Field } from "./form-field";

/**
 * A second-factor code: the app's six digits (`digitsOnly`, at its set-up) or, at the login's code
 * step, a recovery code too, so letters are typed as they are.
 */
export function CodeField({
  field,
  label,
  digitsOnly = false,
  or,
}: {
  field: BoundField;
  label: string;
  digitsOnly?: boolean;
  /** A field that, once filled, stands in for the code (a passkey's answer). */
  or?: string;
}) {
  return (
    <Field
      {...field}
      label={label}
      autoComplete="one-time-code"
      inputMode={digitsOnly ? "numeric" : "text"}
      spellCheck={false}
      autoCapitalize="off"
      maxLength={CODE_MAX_LENGTH}
      required
      data-missing={codeMessages.empty}
      data-or={or}
    />
  );
}
