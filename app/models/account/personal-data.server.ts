/**
 * "Download my data": what the portal holds about one account, as one JSON document: the account and the
 * details given, the NDA's steps (an investor's: when each was done, and each change since), the second
 * factor in counts, the web sessions and API token families, and the account's own activity in the audit
 * trail (what they did, and what was done to their account; never the title of a document they were refused). Each part is a mapping from stored rows, so a column added later is one line here. The
 * download is recorded and e-mailed; secrets and their digests never leave.
 */
import { auditEvents } from "~/content/audit-log";
import { myDataContent } from "~/content/my-details";
import { detailsObject, eventInWords } from "~/models/audit/audit-log.server";
import { recordOwnAccountEvent } from "~/models/audit/audit.server";
import { ndaTimeline } from "~/models/investors/nda-timeline.server";
import { secondFactorStatus } from "~/models/second-factor/second-factor.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { accountMail } from "./account-mail.server";
import { describeUserAgent } from "./client-device.server";
import { SESSION_IDLE_MS } from "./session.server";

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/**
 * The account's data as a JSON document, recorded in the audit trail first (a copy that is not in the trail
 * never leaves) and e-mailed to the account. The caller has checked "sudo mode".
 */
export async function exportPersonalData({
  account,
  sessionIdHash,
  ip,
}: {
  account: { id: string; email: string };
  sessionIdHash: string;
  ip: string;
}): Promise<string> {
  await recordOwnAccountEvent(account, "account.data_exported", { ip });
  const data = await personalData(account.id, sessionIdHash);
  accountMail.dataDownloaded(account.email);
  return `${JSON.stringify(data, null, 2)}\n`;
}

async function personalData(userId: string, sessionIdHash: string) {
  const user = await getDb().selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  const [nda, secondFactor, sessions, apiTokenFamilies, activity] = await Promise.all([
    user.role === "investor"
      ? ndaTimeline(
          user.id,
          {
            fullName: user.full_name,
            address: user.address,
            isNDASent: user.is_nda_sent === 1,
            isNDASigned: user.is_nda_signed === 1,
          },
          (change) => byWhom(user.id, change.actorId),
        )
      : null,
    secondFactorStatus(user.id),
    liveSessions(user.id, sessionIdHash),
    tokenFamilies(user.id),
    ownActivity(user.id),
  ]);
  return {
    exportedAt: iso(now()),
    account: {
      id: user.id,
      email: user.email,
      role: user.role,
      fullName: user.full_name,
      address: user.address,
      emailVerifiedAt: iso(user.email_verified_at),
      registeredAt: iso(user.created_at),
      updatedAt: iso(user.updated_at),
      lastSignInAt: iso(user.last_login_at),
    },
    ...(nda
      ? {
          // Each step's "by" and history say "you" or "an administrator of the firm", as the activity does.
          nda: { detailsGiven: nda.details, sent: nda.sent, signed: nda.signed },
        }
      : {}),
    secondFactor: {
      authenticator: secondFactor.totp,
      passkeys: secondFactor.passkeys,
      recoveryCodesLeft: secondFactor.recoveryCodesLeft,
    },
    sessions,
    apiTokenFamilies,
    activity,
  };
}

/** Who made an audit row, as the account is told: themselves, no one, or the firm (the administrator unnamed). */
function byWhom(userId: string, actorId: string | null): string {
  return myDataContent.by[actorId === userId ? "you" : actorId === null ? "nobody" : "administrator"];
}

/**
 * What the account is not told of a row it made: a document it was refused is outside its audience, so
 * its title is the firm's to keep (the id is the one it asked for).
 */
const WITHHELD_DETAILS: Record<string, readonly string[]> = { "material.refused": ["title"] };

function detailsItMayRead(action: string, details: Record<string, unknown>): Record<string, unknown> {
  const withheld = Object.hasOwn(WITHHELD_DETAILS, action) ? WITHHELD_DETAILS[action] : [];
  return Object.fromEntries(Object.entries(details).filter(([key]) => !withheld.includes(key)));
}

/** The web sessions still open, newest first, this one marked. */
async function liveSessions(userId: string, currentIdHash: string) {
  const at = now();
  const rows = await getDb()
    .selectFrom("sessions")
    .selectAll()
    .where("user_id", "=", userId)
    .where("expires_at", ">", at)
    .where("last_seen_at", ">", at - SESSION_IDLE_MS)
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((row) => ({
    current: row.id_hash === currentIdHash,
    device: describeUserAgent(row.user_agent),
    ip: row.ip,
    signedInAt: iso(row.created_at),
    lastSeenAt: iso(row.last_seen_at),
    expiresAt: iso(row.expires_at),
    signedInWith: row.auth_method,
  }));
}

/** Each API sign-in (a token family) still stored, live or revoked: its client, when it began, was last used, ends. */
async function tokenFamilies(userId: string) {
  const at = now();
  const rows = await getDb()
    .selectFrom("api_token_families")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((row) => ({
    device: describeUserAgent(row.user_agent),
    ip: row.ip,
    signedInAt: iso(row.created_at),
    lastUsedAt: iso(row.last_used_at),
    expiresAt: iso(row.expires_at),
    active: row.revoked_at === null && row.expires_at >= at,
    revokedAt: iso(row.revoked_at),
  }));
}

/**
 * The account's rows of the audit trail, oldest first: what they did, and what was done to their account.
 * Another person's address (an administrator's) is not theirs to take away: only the rows they made, and
 * attempts on their account by someone not signed in, keep the client's address.
 */
async function ownActivity(userId: string) {
  const rows = await getDb()
    .selectFrom("audit_events")
    .select(["id", "at", "action", "actor_id", "target_email", "details", "ip"])
    .where((eb) => eb.or([eb("actor_id", "=", userId), eb("target_id", "=", userId)]))
    .orderBy("id")
    .execute();
  return rows.map((row) => {
    const details = detailsItMayRead(row.action, detailsObject(row.details));
    const byAdministrator = row.actor_id !== userId && row.actor_id !== null;
    return {
      at: iso(row.at),
      event: eventInWords(row.action, { target: row.target_email, details }),
      kind: Object.hasOwn(auditEvents, row.action) ? auditEvents[row.action].kind : row.action,
      code: row.action,
      by: byWhom(userId, row.actor_id),
      ip: byAdministrator ? null : row.ip,
      details,
      auditRow: row.id,
    };
  });
}
