import { CODE_MAX_LENGTH, codeMessages } from "~/content/second-factor";
import type { BoundField } from "~/hooks/use-live-validation";
import { Field } from "./form-field";

/**
 * A second-factor code. The app's six digits (`kind="app"`) bring a phone's number pad and the code
 * the phone offers from a text message or an authenticator; a recovery code (`kind="recovery"`) has
 * letters, so it gets the ordinary keyboard. Either way the server takes either kind of code, with
 * spaces or a hyphen in it (second-factor-schemas.server.ts), so a pasted code needs no tidying.
 */
export function CodeField({
  field,
  label,
  kind = "app",
  focusOnArrival = false,
  or,
}: {
  field: BoundField;
  label: string;
  kind?: "app" | "recovery";
  /** The page is there for this field alone (the code step, the set-up's last step): the cursor starts in it. */
  focusOnArrival?: boolean;
  /** A field that, once filled, stands in for the code (a passkey's answer). */
  or?: string;
}) {
  return (
    <Field
      {...field}
      label={label}
      autoComplete={kind === "app" ? "one-time-code" : "off"}
      inputMode={kind === "app" ? "numeric" : "text"}
      spellCheck={false}
      autoCapitalize="off"
      autoCorrect="off"
      // The one thing the page asks for, right after the step before it: typing can begin at once.
      // Only pages whose purpose is this field pass it, so no one lands past text they needed to read.
      // eslint-disable-next-line jsx-a11y/no-autofocus
      autoFocus={focusOnArrival}
      maxLength={CODE_MAX_LENGTH}
      required
      data-missing={codeMessages.empty}
      data-or={or}
    />
  );
}
