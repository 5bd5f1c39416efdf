/**
 * "Sudo mode" (docs/decisions/0018): before a change to how an account signs in, its user proves
 * again who they are, in the session they are using: the password, and the second factor where the
 * account has one (a code of the app, a recovery code, or a passkey). The proof opens the changes for
 * REAUTHENTICATION_MS; the login itself counts as one. A session someone stole, or a password someone
 * learned, is not enough to change the factor that guards the account.
 */
import { passkeyMessages, securityMessages } from "~/content/second-factor";
import { confirmPassword } from "./account.server";
import { recordOwnAccountEvent } from "./audit.server";
import type { Failure } from "./failure";
import { confirmWithPasskey } from "./passkey.server";
import type { ReauthenticationInput } from "./second-factor-schemas.server";
import { checkSecondFactorCode, hasSecondFactor, secondFactorStatus } from "./second-factor.server";
import { markReauthenticated } from "./session.server";
import type { PublicUser } from "./user.server";

export type ReauthenticationResult = { ok: true } | Failure<400 | 401 | 423 | 429>;

export async function reauthenticate({
  user,
  sessionIdHash,
  proof,
  ip,
}: {
  user: Pick<PublicUser, "id" | "email">;
  sessionIdHash: string;
  proof: Omit<ReauthenticationInput, "intent">;
  ip: string;
}): Promise<ReauthenticationResult> {
  const password = await confirmPassword({ user, password: proof.password, ip });
  if (!password.ok) return password;

  let method = "password";
  if (hasSecondFactor(await secondFactorStatus(user.id))) {
    if (proof.passkeyAnswer) {
      const confirmed = await confirmWithPasskey({ user, ...proof.passkeyAnswer, ip });
      if (!confirmed) return { ok: false, status: 401, message: passkeyMessages.refused };
      method = "password+passkey";
    } else if (proof.code) {
      const checked = await checkSecondFactorCode({ user, code: proof.code, ip });
      if (!checked.ok) return checked;
      method = `password+${checked.method}`;
    } else {
      return { ok: false, status: 400, message: securityMessages.codeNeeded };
    }
  }
  await markReauthenticated(sessionIdHash);
  await recordOwnAccountEvent(user, "account.reauthenticated", { ip, details: { method } });
  return { ok: true };
}
