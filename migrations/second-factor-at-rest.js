// @ts-check
// Migration 009's data steps, the same on both engines (each engine's 009 makes its own schema change first).
import { isSealed, sealSecret } from "./secret-box.js";

/** How long a password-only administrator session lasts: app/models/account/session.server.ts says the same. */
const ENROLMENT_SESSION_MS = 15 * 60 * 1000;

/**
 * The context a TOTP secret is sealed under: the account it belongs to.
 * @param {string} userId
 */
export function totpSecretContext(userId) {
  return `totp:${userId}`;
}

/**
 * Encrypts every TOTP secret still stored in clear.
 * @param {import("kysely").Kysely<any>} db
 * @param {string | undefined} dataKey
 */
export async function sealStoredTotpSecrets(db, dataKey) {
  const rows = await db.selectFrom("totp_credentials").select(["user_id", "secret"]).execute();
  const clear = rows.filter((row) => row.secret !== null && !isSealed(row.secret));
  if (clear.length === 0) return;
  if (!dataKey) throw new Error("Encrypting the stored authenticator secrets needs DATA_KEY.");
  for (const row of clear) {
    await db
      .updateTable("totp_credentials")
      .set({ secret: sealSecret(dataKey, row.secret, totpSecretContext(row.user_id)) })
      .where("user_id", "=", row.user_id)
      .execute();
  }
}

/**
 * An administrator's session opened with the password alone ends 15 minutes after it began.
 * @param {import("kysely").Kysely<any>} db
 */
export async function shortenPasswordOnlyAdminSessions(db) {
  const sessions = await db
    .selectFrom("sessions")
    .select(["id_hash", "created_at", "expires_at"])
    .where("auth_method", "=", "password")
    .where("user_id", "in", db.selectFrom("users").select("id").where("role", "=", "administrator"))
    .execute();
  for (const session of sessions) {
    const ends = Number(session.created_at) + ENROLMENT_SESSION_MS;
    if (Number(session.expires_at) <= ends) continue;
    await db.updateTable("sessions").set({ expires_at: ends }).where("id_hash", "=", session.id_hash).execute();
  }
}
