import { Field } from "~/components/form-field";
import { authLabels } from "~/content/account-pages/common";
import { PASSWORD_MIN_LENGTH } from "~/content/constants";
import { validationMessages } from "~/content/validation-messages";
import type { BoundField } from "~/hooks/use-live-validation";

/** A new password and its confirmation, as sign-up, password reset and the password's change ask for them. */
export function NewPasswordFields({
  password,
  confirmPassword,
  labels = authLabels,
}: {
  password: BoundField;
  confirmPassword: BoundField;
  /** Where another password is on the page too, the labels say which is the new one. */
  labels?: { password: string; confirmPassword: string };
}) {
  return (
    <>
      <Field
        {...password}
        label={labels.password}
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
        label={labels.confirmPassword}
        type="password"
        autoComplete="new-password"
        data-match={password.name}
        data-mismatch={validationMessages.passwordsDoNotMatch}
      />
    </>
  );
}
