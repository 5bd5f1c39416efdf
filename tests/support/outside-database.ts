/**
 * A running server's database, opened from outside the server: for e2e specs and script tests that
 * set up what no request can (seeded users, an NDA marked signed, an authenticator app) or look at
 * what was stored. The same queries on either engine: an SQLite file or a PostgreSQL database.
 * Integration tests use the app's own handle instead (factories.ts).
 */
import { randomUUID } from "node:crypto";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Database } from "~/server/db.server";
import { searchTextFor } from "../../migrations/search-text.js";
import { totpSecretContext } from "../../migrations/second-factor-at-rest.js";
import { sealSecret } from "../../migrations/secret-box.js";
import { TEST_KEYS } from "./test-keys";
import { newTotpSecret } from "./totp";
import { userValues, type UserFields, type UserValues } from "./user-values";

/** Where a server keeps its data: an SQLite file, or a PostgreSQL database. */
export type DatabaseLocation = { path: string } | { url: string };

/** The settings that point a server or a script at `location`. */
export function databaseEnv(location: DatabaseLocation): Record<string, string> {
  return "path" in location ? { DATABASE_PATH: location.path, DATABASE_URL: "" } : { DATABASE_URL: location.url };
}

/** Opens the database (an SQLite file must exist), runs `work` on it and closes it again, whatever happens. */
export async function withDatabase<T>(
  location: DatabaseLocation,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const db = new Kysely<Database>({
    dialect:
      "path" in location
        ? new SqliteDialect({ database: openFile(location.path) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: location.url, max: 1 }) }),
  });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

function openFile(file: string) {
  const sqlite = new BetterSqlite3(file, { fileMustExist: true });
  // The server writes to the same file: wait for its lock rather than fail.
  sqlite.pragma("busy_timeout = 5000");
  return sqlite;
}

/** Users straight into `users`, in one transaction, each as createUser (factories.ts) would make it. */
export async function insertUsers(db: Kysely<Database>, users: Partial<UserFields>[]): Promise<UserValues[]> {
  const rows = users.map((fields) => userValues(fields));
  await db.transaction().execute(async (trx) => {
    // Within either engine's limit on the parameters of one statement.
    for (let at = 0; at < rows.length; at += 200)
      await trx
        .insertInto("users")
        .values(rows.slice(at, at + 200))
        .execute();
  });
  return rows;
}

/**
 * Changes a user's name, address or NDA flags, found by e-mail, as an administrator's change
 * would leave them (`signed: true` sets `sent` too). Fields not given stay as they are.
 */
export async function updateUser(
  db: Kysely<Database>,
  email: string,
  fields: Partial<Pick<UserFields, "fullName" | "address" | "addressLines" | "sent" | "signed">>,
) {
  const changes: {
    full_name?: string;
    search_text?: string;
    address?: string;
    address_lines?: string | null;
    is_nda_sent?: number;
    is_nda_signed?: number;
  } = {};
  if (fields.fullName !== undefined) {
    changes.full_name = fields.fullName;
    changes.search_text = searchTextFor({ fullName: fields.fullName, email });
  }
  if (fields.address !== undefined) changes.address = fields.address;
  if (fields.addressLines !== undefined) changes.address_lines = fields.addressLines;
  if (fields.sent !== undefined) changes.is_nda_sent = fields.sent ? 1 : 0;
  if (fields.signed !== undefined) {
    changes.is_nda_signed = fields.signed ? 1 : 0;
    if (fields.signed) changes.is_nda_sent = 1;
  }
  if (Object.keys(changes).length === 0) throw new Error("updateUser: nothing to change");
  const { numUpdatedRows } = await db.updateTable("users").set(changes).where("email", "=", email).executeTakeFirst();
  if (numUpdatedRows !== 1n) throw new Error(`updateUser: no user ${email}`);
}

/** Records the firm's verification of how the investor (found by e-mail) qualifies, standing until `expiresAt`. */
export async function addVerification(db: Kysely<Database>, email: string, expiresAt: number) {
  const user = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  await db
    .insertInto("verifications")
    .values({
      id: randomUUID(),
      user_id: user.id,
      method: "cpa_letter",
      verified_on: new Date(expiresAt - 90 * 86_400_000).toISOString().slice(0, 10),
      note: "",
      blob_id: null,
      file_name: null,
      recorded_by: null,
      expires_at: expiresAt,
      created_at: Date.now(),
    })
    .execute();
}

/**
 * Gives the account an authenticator app, as if its owner had set one up, and returns the secret
 * (base32) that the tests' authenticator (totp.ts) makes codes from. It is stored sealed under the
 * test servers' DATA_KEY, as the app stores it.
 */
export async function enrolTotp(db: Kysely<Database>, email: string, secret = newTotpSecret()): Promise<string> {
  const user = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  if (!user) throw new Error(`No account ${email} to give an authenticator app`);
  const enrolled = {
    secret: sealSecret(TEST_KEYS.DATA_KEY, secret, totpSecretContext(user.id)),
    confirmed_at: Date.now(),
    last_step: null,
  };
  await db
    .insertInto("totp_credentials")
    .values({ user_id: user.id, ...enrolled })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet(enrolled))
    .execute();
  return secret;
}

/**
 * Closes the account's "Confirm it's you" window in every session, as ten minutes passing would: the
 * security page then asks for the password (and second factor) again.
 */
export async function expireReauthentication(db: Kysely<Database>, email: string) {
  await setReauthenticatedAt(db, email, null);
}

/** Opens the account's "Confirm it's you" window in every session, as a confirmation just now would. */
export async function reauthenticateNow(db: Kysely<Database>, email: string) {
  await setReauthenticatedAt(db, email, Date.now());
}

async function setReauthenticatedAt(db: Kysely<Database>, email: string, at: number | null) {
  await db
    .updateTable("sessions")
    .set({ reauthenticated_at: at })
    .where("user_id", "in", db.selectFrom("users").select("id").where("email", "=", email))
    .execute();
}
