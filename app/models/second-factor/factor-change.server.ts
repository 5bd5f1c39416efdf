/**
 * What follows every change of an account's second factor (an app set up or replaced, recovery
 * codes made again, a passkey added or removed, the factor turned off, or another administrator's
 * reset of it): the change is recorded, every other web session of the account ends and every API
 * token family is revoked, and the account is told by e-mail. Whoever held a session or token from
 * before the change (someone who stole one, say) must sign in again, past the factor as it now stands.
 */
import { accountMail } from "~/models/account/account-mail.server";
import { revokeApiTokens } from "~/models/account/api-token.server";
import { deleteUserSessions } from "~/models/account/session.server";
import { recordAuditEvent, recordOwnAccountEvent } from "~/models/audit/audit.server";

type Account = { id: string; email: string };

export type FactorChange = {
  account: Account;
  /** The session the change was made in, which stays open; null when made outside one. */
  keepSessionIdHash: string | null;
  /** The audit event, e.g. "mfa.totp_enrolled". */
  action: string;
  ip: string;
} & (
  | {
      /** The sentence the e-mail reports the change with. */
      change: string;
      /** The administrator who made the change for the account (an investor's reset): the audit's actor. */
      by?: Account;
    }
  | {
      /** The administrator who reset another administrator's factor: the audit's actor, named in its own e-mail. */
      by: Account;
      change?: undefined;
    }
);

export async function afterFactorChange({ account, keepSessionIdHash, action, change, by, ip }: FactorChange) {
  await deleteUserSessions(account.id, { keepIdHash: keepSessionIdHash ?? undefined });
  await revokeApiTokens({ userId: account.id });
  const details = { otherSessionsEnded: true };
  if (by) {
    await recordAuditEvent({
      actorId: by.id,
      actorEmail: by.email,
      action,
      targetId: account.id,
      targetEmail: account.email,
      details,
      ip,
    });
  } else {
    await recordOwnAccountEvent(account, action, { ip, details });
  }
  if (change === undefined) {
    accountMail.secondFactorReset(account.email, by.email);
    return;
  }
  accountMail.secondFactorChanged(account.email, change);
}
