/**
 * API tokens (docs/decisions/0004-api-tokens.md): opaque random access tokens
 * for the Authorization header and a rotating refresh token, which the client
 * holds in an HttpOnly cookie (app/http/auth.server.ts). Only SHA-256 digests are stored. Every refresh token belongs to a
 * family (one login); reusing a spent refresh token after a short grace
 * revokes the whole family, because it means a copy of it is in other hands.
 */
import { randomUUID } from "node:crypto";
import { HOUR_MS, MINUTE_MS } from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { asOnlyWriter, type OnlyWriter } from "~/server/sql-dialect.server";
import type { Client } from "./client-device.server";
import { hashSecretToken, looksLikeSecretToken, newSecretToken } from "./secret-token.server";
import { getUserById, type PublicUser } from "./user.server";

export const ACCESS_TOKEN_TTL_MS = 15 * MINUTE_MS;
/** A family (one login) lives as long as a web session can: 12 hours, however often it is refreshed. */
export const REFRESH_FAMILY_TTL_MS = 12 * HOUR_MS;
/** A family's last use moves at most once a minute, as a web session's idle window does: a client's burst writes once. */
const LAST_USED_INTERVAL_MS = MINUTE_MS;
/** Two tabs refreshing at once both present the same token; that is not theft. */
export const REFRESH_REUSE_GRACE_MS = 10_000;
export type IssuedTokens = {
  accessToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
  refreshToken: string;
  /** Seconds the refresh token lives: the rest of its family's twelve hours. */
  refreshMaxAge: number;
};

export type RefreshOutcome = ({ ok: true } & IssuedTokens) | { ok: false; reason: "missing" | "invalid" | "reused" };

/** A new family for a fresh login, recorded with the client it came from: one access token and one refresh token. */
export async function issueApiTokens(
  userId: string,
  client: Client = { userAgent: null, ip: null },
): Promise<IssuedTokens> {
  const at = now();
  const familyId = randomUUID();
  const expiresAt = at + REFRESH_FAMILY_TTL_MS;
  // One commit for the family and its first tokens: never a family without them, and one wait for the disk, not two.
  return getDb()
    .transaction()
    .execute(async (db) => {
      await db
        .insertInto("api_token_families")
        .values({
          id: familyId,
          user_id: userId,
          user_agent: client.userAgent,
          ip: client.ip,
          created_at: at,
          last_used_at: at,
          expires_at: expiresAt,
          revoked_at: null,
        })
        .execute();
      return issueInFamily(db, userId, familyId, expiresAt);
    });
}

/**
 * Trades a refresh token for a new access token and a new refresh token. A
 * token spent more than REFRESH_REUSE_GRACE_MS ago revokes its family.
 */
export async function refreshApiTokens(token: string | null): Promise<RefreshOutcome> {
  if (!looksLikeSecretToken(token)) return { ok: false, reason: "missing" };

  const tokenHash = hashSecretToken(token);
  const owner = await getDb()
    .selectFrom("api_tokens")
    .select("user_id")
    .where("token_hash", "=", tokenHash)
    .where("kind", "=", "refresh")
    .executeTakeFirst();
  if (!owner || !(await getUserById(owner.user_id))) return { ok: false, reason: "invalid" };

  return asTokenWriter(owner.user_id, async (db) => {
    const at = now();
    const row = await db.selectFrom("api_tokens").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
    if (!row || row.revoked_at !== null || at > row.expires_at) return { ok: false, reason: "invalid" } as const;
    if (row.used_at === null) {
      await db.updateTable("api_tokens").set({ used_at: at }).where("token_hash", "=", tokenHash).execute();
    } else if (at > row.used_at + REFRESH_REUSE_GRACE_MS) {
      await revokeFamily(db, row.family_id);
      return { ok: false, reason: "reused" } as const;
    }
    await db.updateTable("api_token_families").set({ last_used_at: at }).where("id", "=", row.family_id).execute();
    return { ok: true, ...(await issueInFamily(db, row.user_id, row.family_id, row.expires_at)) } as const;
  });
}

/** The user an access token from an Authorization header belongs to, or null. Moves its family's last use. */
export async function authenticateAccessToken(token: string | null | undefined): Promise<PublicUser | null> {
  if (!looksLikeSecretToken(token)) return null;
  const at = now();
  const row = await getDb()
    .selectFrom("api_tokens")
    .leftJoin("api_token_families", "api_token_families.id", "api_tokens.family_id")
    .select(["api_tokens.user_id", "api_tokens.family_id", "api_token_families.last_used_at"])
    .where("api_tokens.token_hash", "=", hashSecretToken(token))
    .where("api_tokens.kind", "=", "access")
    .where("api_tokens.revoked_at", "is", null)
    .where("api_tokens.expires_at", ">=", at)
    .executeTakeFirst();
  if (!row) return null;
  if (row.last_used_at !== null && at - row.last_used_at >= LAST_USED_INTERVAL_MS) {
    await getDb().updateTable("api_token_families").set({ last_used_at: at }).where("id", "=", row.family_id).execute();
  }
  return getUserById(row.user_id);
}

export type ApiAccessSummary = {
  /** The family's id: it opens nothing by itself (only the tokens' secrets do). */
  id: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: string;
  lastUsedAt: string;
};

/** The user's live API sign-ins (token families neither revoked nor expired), the newest first. */
export async function listApiAccess(userId: string): Promise<ApiAccessSummary[]> {
  const rows = await getDb()
    .selectFrom("api_token_families")
    .select(["id", "user_agent", "ip", "created_at", "last_used_at"])
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">=", now())
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    userAgent: row.user_agent,
    ip: row.ip,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: new Date(row.last_used_at).toISOString(),
  }));
}

/** Revokes one of the user's live token families; false when the user has no such live family. */
export async function revokeApiAccess(userId: string, familyId: string): Promise<boolean> {
  return asTokenWriter(userId, async (db) => {
    const family = await db
      .updateTable("api_token_families")
      .set({ revoked_at: now() })
      .where("id", "=", familyId)
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .where("expires_at", ">=", now())
      .executeTakeFirst();
    if (family.numUpdatedRows === 0n) return false;
    await revokeFamily(db, familyId);
    return true;
  });
}

/**
 * Revokes API tokens: every one of a user (password reset, deletion), or the
 * families of the given access and refresh tokens (logout).
 */
export async function revokeApiTokens(target: { userId: string } | { tokens: (string | null)[] }): Promise<void> {
  if ("userId" in target) {
    await asTokenWriter(target.userId, async (db) => {
      const at = now();
      await db
        .updateTable("api_tokens")
        .set({ revoked_at: at })
        .where("user_id", "=", target.userId)
        .where("revoked_at", "is", null)
        .execute();
      await db
        .updateTable("api_token_families")
        .set({ revoked_at: at })
        .where("user_id", "=", target.userId)
        .where("revoked_at", "is", null)
        .execute();
    });
    return;
  }
  const hashes = target.tokens.filter(looksLikeSecretToken).map(hashSecretToken);
  if (hashes.length === 0) return;
  const families = await getDb()
    .selectFrom("api_tokens")
    .select(["user_id", "family_id"])
    .where("token_hash", "in", hashes)
    .execute();
  for (const { user_id, family_id } of families) await asTokenWriter(user_id, (db) => revokeFamily(db, family_id));
}

/**
 * Every write to a user's token families, a rotation or a revocation, is the only one of that user's at
 * the time: a family revoked (a reuse seen, a logout, a password reset) while another request rotates one of
 * its tokens is never given a new, live token after the revocation. SQLite has one writer anyway; on
 * PostgreSQL two requests, on two instances perhaps, would otherwise interleave.
 */
function asTokenWriter<T>(userId: string, work: (db: OnlyWriter) => Promise<T>): Promise<T> {
  return asOnlyWriter(getDb(), `api_tokens:${userId}`, work);
}

async function issueInFamily(
  db: OnlyWriter,
  userId: string,
  familyId: string,
  familyExpiresAt: number,
): Promise<IssuedTokens> {
  const at = now();
  const accessToken = newSecretToken();
  const refreshToken = newSecretToken();
  await db
    .insertInto("api_tokens")
    .values([
      {
        token_hash: hashSecretToken(accessToken),
        kind: "access",
        user_id: userId,
        family_id: familyId,
        created_at: at,
        expires_at: Math.min(at + ACCESS_TOKEN_TTL_MS, familyExpiresAt),
        used_at: null,
        revoked_at: null,
      },
      {
        token_hash: hashSecretToken(refreshToken),
        kind: "refresh",
        user_id: userId,
        family_id: familyId,
        created_at: at,
        expires_at: familyExpiresAt,
        used_at: null,
        revoked_at: null,
      },
    ])
    .execute();
  return {
    accessToken,
    expiresIn: Math.floor(Math.min(ACCESS_TOKEN_TTL_MS, familyExpiresAt - at) / 1000),
    refreshToken,
    refreshMaxAge: Math.max(1, Math.floor((familyExpiresAt - at) / 1000)),
  };
}

async function revokeFamily(db: OnlyWriter, familyId: string) {
  const at = now();
  await db
    .updateTable("api_tokens")
    .set({ revoked_at: at })
    .where("family_id", "=", familyId)
    .where("revoked_at", "is", null)
    .execute();
  await db
    .updateTable("api_token_families")
    .set({ revoked_at: at })
    .where("id", "=", familyId)
    .where("revoked_at", "is", null)
    .execute();
}
