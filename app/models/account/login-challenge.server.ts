/**
 * Short-lived steps of a sign-in kept in the database (so they hold across processes): the wait for
 * a code after the right password, and each WebAuthn ceremony with its challenge. The browser holds
 * only a random id; the database holds its SHA-256, as for sessions.
 */
import { MINUTE_MS } from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { getDb, type LoginChallengesTable } from "~/server/db.server";
import { hashSecretToken, newSecretToken } from "./secret-token.server";

export type ChallengeKind = LoginChallengesTable["kind"];

/** A code (or a passkey) is awaited this long after the password; then the login starts again. */
export const LOGIN_CHALLENGE_MS = 10 * MINUTE_MS;

/** Opens a step and returns its secret id, which only the browser's cookie holds. */
export async function createLoginChallenge({
  kind,
  userId = null,
  challenge = null,
}: {
  kind: ChallengeKind;
  userId?: string | null;
  challenge?: string | null;
}): Promise<string> {
  const id = newSecretToken();
  const at = now();
  await getDb()
    .insertInto("login_challenges")
    .values({
      id_hash: hashSecretToken(id),
      kind,
      user_id: userId,
      challenge,
      created_at: at,
      expires_at: at + LOGIN_CHALLENGE_MS,
    })
    .execute();
  return id;
}

export type LiveChallenge = { userId: string | null; challenge: string | null };

/** The step with this id and kind if it is still open; null otherwise. */
export async function findLoginChallenge(id: string, kind: ChallengeKind): Promise<LiveChallenge | null> {
  const row = await getDb()
    .selectFrom("login_challenges")
    .select(["user_id", "challenge"])
    .where("id_hash", "=", hashSecretToken(id))
    .where("kind", "=", kind)
    .where("expires_at", ">", now())
    .executeTakeFirst();
  return row ? { userId: row.user_id, challenge: row.challenge } : null;
}

/** Closes a step and returns what it held, once: of two requests racing with one id, only one gets it. */
export async function consumeLoginChallenge(id: string, kind: ChallengeKind): Promise<LiveChallenge | null> {
  const row = await getDb()
    .deleteFrom("login_challenges")
    .where("id_hash", "=", hashSecretToken(id))
    .where("kind", "=", kind)
    .where("expires_at", ">", now())
    .returning(["user_id", "challenge"])
    .executeTakeFirst();
  return row ? { userId: row.user_id, challenge: row.challenge } : null;
}
