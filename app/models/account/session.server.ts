/**
 * Web sessions (docs/decisions/0003-sessions-in-the-database.md): the cookie
 * holds only a random id (app/http/auth.server.ts); the database holds its SHA-256,
 * the user, and the idle and absolute deadlines, so a session can be revoked from the server.
 */
import { randomBytes } from "node:crypto";
import type { ExpressionBuilder } from "kysely";
import { HOUR_MS, MINUTE_MS } from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { getDb, type AuthMethod, type Database } from "~/server/db.server";
import type { Client } from "./client-device.server";
import { hashSecretToken, newSecretToken } from "./secret-token.server";
import { PUBLIC_USER_COLUMNS, toPublicUser, type PublicUser } from "./user.server";

export const SESSION_IDLE_MS = 30 * MINUTE_MS;
export const SESSION_ABSOLUTE_MS = 12 * HOUR_MS;
/**
 * An administrator's session opened with the password alone can only set up the second factor, and
 * ends this long after it began unless the set-up completes: a leaked password buys no lasting session.
 */
export const ENROLMENT_SESSION_MS = 15 * MINUTE_MS;
/** How long one proof of the password (and second factor) opens the security changes: "sudo mode". */
export const REAUTHENTICATION_MS = 10 * MINUTE_MS;
/**
 * The idle window moves at most once a minute: every page runs two loaders that read the
 * session, and writing its row twice a page view bought nothing. A session therefore ends 29 to
 * 30 idle minutes after the last visit, never later.
 */
export const SESSION_TOUCH_INTERVAL_MS = MINUTE_MS;

/** A second factor (or a passkey, which is one on its own) went into this session, not a password alone. */
export function openedWithSecondFactor(method: AuthMethod) {
  return method !== "password";
}

/**
 * Opens a session for the user and returns its secret id, which only the cookie holds. A login that
 * asked for the password (and the second factor, where the account has one) is itself a proof of
 * who the user is; a passkey alone proves no password.
 */
export async function createSession(
  userId: string,
  authMethod: AuthMethod,
  { enrolmentOnly = false, client }: { enrolmentOnly?: boolean; client?: Client } = {},
): Promise<string> {
  const id = newSecretToken();
  const at = now();
  await getDb()
    .insertInto("sessions")
    .values({
      id_hash: hashSecretToken(id),
      user_id: userId,
      created_at: at,
      last_seen_at: at,
      expires_at: at + (enrolmentOnly ? ENROLMENT_SESSION_MS : SESSION_ABSOLUTE_MS),
      auth_method: authMethod,
      reauthenticated_at: authMethod === "passkey" ? null : at,
      public_id: newPublicId(),
      user_agent: client?.userAgent ?? null,
      ip: client?.ip ?? null,
    })
    .execute();
  return id;
}

export type LiveSession = {
  /** The SHA-256 of the session's id: how the database names it. */
  idHash: string;
  user: PublicUser;
  authMethod: AuthMethod;
  /** When the user last proved who they are in this session, if they did. */
  reauthenticatedAt: number | null;
};

/**
 * The user of a live session and how it was opened, or null. Each call slides the 30-minute idle
 * window; nothing extends the 12-hour absolute limit. An expired session is deleted.
 */
export async function findSession(id: string): Promise<LiveSession | null> {
  const idHash = hashSecretToken(id);
  // The session and its user in one statement: every signed-in page asks for it (its layout and its guard share
  // one lookup, app/http/auth.server.ts).
  const row = await getDb()
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.last_seen_at",
      "sessions.expires_at",
      "sessions.auth_method",
      "sessions.reauthenticated_at",
      ...PUBLIC_USER_COLUMNS.map((column) => `users.${column}` as const),
    ])
    .where("sessions.id_hash", "=", idHash)
    .executeTakeFirst();
  if (!row) return null;
  const at = now();
  if (at > row.last_seen_at + SESSION_IDLE_MS || at > row.expires_at) {
    await deleteSession(id);
    return null;
  }
  if (at - row.last_seen_at >= SESSION_TOUCH_INTERVAL_MS) {
    await getDb().updateTable("sessions").set({ last_seen_at: at }).where("id_hash", "=", idHash).execute();
  }
  return { idHash, user: toPublicUser(row), authMethod: row.auth_method, reauthenticatedAt: row.reauthenticated_at };
}

/** Whether the session's user proved who they are recently enough for a security change. */
export function isReauthenticated(session: Pick<LiveSession, "reauthenticatedAt">): boolean {
  return session.reauthenticatedAt !== null && now() - session.reauthenticatedAt < REAUTHENTICATION_MS;
}

/** Whether the session was opened less than REAUTHENTICATION_MS ago: the sign-in itself is that recent. */
export async function isFreshSignIn(idHash: string): Promise<boolean> {
  const row = await getDb()
    .selectFrom("sessions")
    .select("created_at")
    .where("id_hash", "=", idHash)
    .executeTakeFirst();
  return row !== undefined && now() - row.created_at < REAUTHENTICATION_MS;
}

/** When the session's confirmed changes close again (ISO 8601), or null when it must confirm first. */
export function reauthenticatedUntil(session: Pick<LiveSession, "reauthenticatedAt">): string | null {
  return isReauthenticated(session) && session.reauthenticatedAt !== null
    ? new Date(session.reauthenticatedAt + REAUTHENTICATION_MS).toISOString()
    : null;
}

/** The user just proved who they are in this session: the security changes open for REAUTHENTICATION_MS. */
export async function markReauthenticated(idHash: string) {
  await getDb().updateTable("sessions").set({ reauthenticated_at: now() }).where("id_hash", "=", idHash).execute();
}

/**
 * Records that the user of a session opened with the password alone has now also passed a second
 * factor (an administrator's first set-up, right after the password): the session counts as opened
 * with both, and lives as long as any other. The id stays: it was issued to this browser at the login.
 */
export async function upgradePasswordSession(idHash: string, authMethod: AuthMethod) {
  await getDb()
    .updateTable("sessions")
    .set((eb) => ({ auth_method: authMethod, expires_at: eb("created_at", "+", SESSION_ABSOLUTE_MS) }))
    .where("id_hash", "=", idHash)
    .where("auth_method", "=", "password")
    .execute();
}

/** Ends one session (logout, or a new login from the same browser). */
export async function deleteSession(id: string) {
  await getDb().deleteFrom("sessions").where("id_hash", "=", hashSecretToken(id)).execute();
}

/** Ends every session of the user (password reset, account deletion), or every one but `keepIdHash`. */
export async function deleteUserSessions(userId: string, { keepIdHash }: { keepIdHash?: string } = {}) {
  let query = getDb().deleteFrom("sessions").where("user_id", "=", userId);
  if (keepIdHash) query = query.where("id_hash", "!=", keepIdHash);
  await query.execute();
}

/** How the sessions page names a session: random, and unrelated to the cookie's secret or its hash. */
function newPublicId() {
  return randomBytes(16).toString("hex");
}

export type SessionSummary = {
  publicId: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: string;
  lastSeenAt: string;
  /** The session the list is shown in. */
  current: boolean;
};

/** How many live web sessions the row's account has at `at`: an expression over a row of `users`. */
export const openSessionCountOf = (eb: ExpressionBuilder<Database, "users">, at: number) =>
  eb
    .selectFrom("sessions")
    .select((inner) => inner.fn.countAll<number>().as("n"))
    .whereRef("sessions.user_id", "=", "users.id")
    .where("sessions.expires_at", ">", at)
    .where("sessions.last_seen_at", ">", at - SESSION_IDLE_MS);

/** The user's live web sessions, the newest first; `currentIdHash` marks the one asking. */
export async function listSessions(userId: string, currentIdHash: string): Promise<SessionSummary[]> {
  const at = now();
  const rows = await getDb()
    .selectFrom("sessions")
    .select(["id_hash", "public_id", "user_agent", "ip", "created_at", "last_seen_at"])
    .where("user_id", "=", userId)
    .where("expires_at", ">=", at)
    .where("last_seen_at", ">=", at - SESSION_IDLE_MS)
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((row) => ({
    publicId: row.public_id ?? "",
    userAgent: row.user_agent,
    ip: row.ip,
    createdAt: new Date(row.created_at).toISOString(),
    lastSeenAt: new Date(row.last_seen_at).toISOString(),
    current: row.id_hash === currentIdHash,
  }));
}

/**
 * Ends one of the user's other sessions, named by its public id; false when the user has no such
 * session (another account's, the asking session itself, or one already ended). The owner is part of
 * the delete itself, so a forged id never reaches another account's session.
 */
export async function deleteOtherSession({
  userId,
  publicId,
  currentIdHash,
}: {
  userId: string;
  publicId: string;
  currentIdHash: string;
}): Promise<boolean> {
  const deleted = await getDb()
    .deleteFrom("sessions")
    .where("public_id", "=", publicId)
    .where("user_id", "=", userId)
    .where("id_hash", "!=", currentIdHash)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}
