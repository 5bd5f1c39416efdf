/**
 * What a security page needs to show about "sudo mode": whether the session may make changes now,
 * until when, and what the "Confirm it's you" form asks for when it may not.
 */
import { type LiveSession, reauthenticatedUntil, REAUTHENTICATION_MS } from "~/models/account/session.server";
import type { SecondFactorStatus } from "~/models/second-factor/second-factor.server";

export type ReauthenticationState = {
  /** When the changes close again, as ISO 8601; null when the form must be filled first. */
  until: string | null;
  /** The form asks for a code: the account has an app or recovery codes. */
  asksForCode: boolean;
  /** The code is most likely the app's (a number pad on a phone); without an app, a recovery code. */
  codeFromApp: boolean;
  /** The form offers a passkey: the account has one. */
  offersPasskey: boolean;
  minutes: number;
};

export function reauthenticationState(
  session: Pick<LiveSession, "reauthenticatedAt">,
  status: SecondFactorStatus,
): ReauthenticationState {
  return {
    until: reauthenticatedUntil(session),
    asksForCode: status.totp || status.recoveryCodesLeft > 0,
    codeFromApp: status.totp,
    offersPasskey: status.passkeys > 0,
    minutes: REAUTHENTICATION_MS / 60_000,
  };
}
