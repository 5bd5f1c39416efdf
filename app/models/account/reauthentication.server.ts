/**
 * "Sudo mode" (docs/decisions/0018): before a change to how an account signs in, its user proves
 * again who they are, in the session they are using: the password, and the second factor where the
 * account has one (a code of the app, a recovery code, or a passkey). The proof opens the changes for
 * REAUTHENTICATION_MS; the login itself counts as one. A session someone stole, or a password someone
 * learned, is not enough to change the factor that guards the account.
 */
import { accountMessages } from "~/content/account-messages";
import { passkeyMessages, securityMessages } from "~/content/second-factor";
import { recordOwnAccountEvent } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { confirmWithPasskey } from "~/models/second-factor/passkey.server";
import type { ReauthenticationInput } from "~/models/second-factor/second-factor-schemas.server";
import {
  checkSecondFactorCode,
  hasSecondFactor,
  secondFactorStatus,
} from "~/models/second-factor/second-factor.server";
import { loginStanding, recordLoginFailure, throttleAuthRequest } from "~/models/throttle.server";
import { lockedOut, throttled, type FromClient } from "./account-answers.server";
import { verifyPassword } from "./password.server";
import { markReauthenticated } from "./session.server";
import { getUserRowById, type PublicUser } from "./user.server";

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
  const confirmed = await confirmIdentity({ user, proof, ip });
  if (!confirmed.ok) return confirmed;
  await markReauthenticated(sessionIdHash);
  await recordOwnAccountEvent(user, "account.reauthenticated", { ip, details: { method: confirmed.method } });
  return { ok: true };
}

/**
 * The password, and the second factor where the account has one: how the confirmation went ("password",
 * "password+totp", "password+passkey"...), or why it was refused. Also asked at an NDA's signature.
 */
export async function confirmIdentity({
  user,
  proof,
  ip,
}: {
  user: Pick<PublicUser, "id" | "email">;
  proof: Omit<ReauthenticationInput, "intent">;
  ip: string;
}): Promise<{ ok: true; method: string } | Failure<400 | 401 | 423 | 429>> {
  const password = await confirmPassword({ user, password: proof.password, ip });
  if (!password.ok) return password;
  const factor = await confirmSecondFactor({ user, proof, ip });
  return factor.ok ? { ok: true, method: `password${factor.method ? `+${factor.method}` : ""}` } : factor;
}

/** The second factor where the account has one (a passkey's answer or a code); method null where it has none. */
export async function confirmSecondFactor({
  user,
  proof,
  ip,
}: {
  user: Pick<PublicUser, "id" | "email">;
  proof: Pick<ReauthenticationInput, "passkeyAnswer" | "code">;
  ip: string;
}): Promise<{ ok: true; method: string | null } | Failure<400 | 401 | 423 | 429>> {
  if (!hasSecondFactor(await secondFactorStatus(user.id))) return { ok: true, method: null };
  if (proof.passkeyAnswer) {
    const confirmed = await confirmWithPasskey({ user, ...proof.passkeyAnswer, ip });
    return confirmed ? { ok: true, method: "passkey" } : { ok: false, status: 401, message: passkeyMessages.refused };
  }
  if (proof.code) {
    const checked = await checkSecondFactorCode({ user, code: proof.code, ip });
    return checked.ok ? { ok: true, method: checked.method } : checked;
  }
  return { ok: false, status: 400, message: securityMessages.codeNeeded };
}

export type PasswordCheckResult = { ok: true } | Failure<401 | 423 | 429>;

/**
 * The password asked again before a change to how the account signs in. A wrong one counts towards
 * the address's login lock, as at the login, so a stolen session cannot guess it either.
 */
export async function confirmPassword({
  user,
  password,
  ip,
}: { user: Pick<PublicUser, "id" | "email">; password: string } & FromClient): Promise<PasswordCheckResult> {
  const throttle = await throttleAuthRequest(ip);
  if (!throttle.allowed) return throttled(throttle.retryAfterSeconds);
  const standing = await loginStanding(user.email);
  if (standing.locked) return lockedOut(standing.retryAfterSeconds);
  const row = await getUserRowById(user.id);
  if (row && (await verifyPassword(row.password_hash, password))) return { ok: true };
  await recordLoginFailure(user.email);
  await recordOwnAccountEvent(user, "password.confirm_failed", { ip });
  return { ok: false, status: 401, message: accountMessages.passwordWrong };
}
