import { Field } from "~/components/form-field";
import { validationMessages } from "~/content/account-messages";
import { authLabels } from "~/content/account-pages/common";
import { PASSWORD_MIN_LENGTH } from "~/content/constants";
import type { BoundField } from "~/hooks/use-live-validation";

/** A new password and its confirmation, as sign-up and password reset ask for them. */
export function NewPasswordFields({
  password,
  confirmPassword,
}: {
  password: BoundField;
  confirmPassword: BoundField;
}) {
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
