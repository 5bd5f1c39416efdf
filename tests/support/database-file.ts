/**
 * A running server's SQLite file, opened from outside the server (better-sqlite3): for e2e specs
 * that set up what no request can (seeded users, an NDA marked signed) or look at what was stored.
 * Integration tests use the app's own handle instead (factories.ts).
 */
import Database from "better-sqlite3";
import { newTotpSecret } from "./totp";
import { userValues, type UserFields, type UserValues } from "./user-values";

/** Opens the file (which must exist), runs `work` on it and closes it again, whatever happens. */
export function withDatabaseFile<T>(
  file: string,
  work: (db: Database.Database) => T,
  { readonly = false }: { readonly?: boolean } = {},
): T {
  const db = new Database(file, { readonly, fileMustExist: true });
  try {
    // The server writes to the same file: wait for its lock rather than fail.
    db.pragma("busy_timeout = 5000");
    return work(db);
  } finally {
    db.close();
  }
}

/** Users straight into `users`, in one transaction, each as createUser (factories.ts) would make it. */
export function insertUsers(db: Database.Database, users: Partial<UserFields>[]): UserValues[] {
  const rows = users.map((fields) => userValues(fields));
  const columns = Object.keys(rows[0] ?? {});
  const insert = db.prepare(
    `insert into users (${columns.join(", ")}) values (${columns.map((column) => `@${column}`).join(", ")})`,
  );
  db.transaction(() => {
    for (const row of rows) insert.run(row);
  })();
  return rows;
}

/**
 * Changes a user's name, address or NDA flags, found by e-mail, as an administrator's change
 * would leave them (`signed: true` sets `sent` too). Fields not given stay as they are.
 */
export function updateUser(
  db: Database.Database,
  email: string,
  fields: Partial<Pick<UserFields, "fullName" | "address" | "sent" | "signed">>,
) {
  const changes: Record<string, string | number> = {};
  if (fields.fullName !== undefined) changes.full_name = fields.fullName;
  if (fields.address !== undefined) changes.address = fields.address;
  if (fields.sent !== undefined) changes.is_nda_sent = fields.sent ? 1 : 0;
  if (fields.signed !== undefined) {
    changes.is_nda_signed = fields.signed ? 1 : 0;
    if (fields.signed) changes.is_nda_sent = 1;
  }
  const columns = Object.keys(changes);
  if (columns.length === 0) throw new Error("updateUser: nothing to change");
  const { changes: updated } = db
    .prepare(`update users set ${columns.map((column) => `${column} = @${column}`).join(", ")} where email = @email`)
    .run({ ...changes, email });
  if (updated !== 1) throw new Error(`updateUser: no user ${email}`);
}

/**
 * Gives the account an authenticator app, as if its owner had set one up, and returns the secret
 * (base32) that the tests' authenticator (totp.ts) makes codes from.
 */
export function enrolTotp(db: Database.Database, email: string, secret = newTotpSecret()): string {
  const changed = db
    .prepare(
      "insert into totp_credentials (user_id, secret, confirmed_at) select id, ?, ? from users where email = ? " +
        "on conflict (user_id) do update set secret = excluded.secret, confirmed_at = excluded.confirmed_at, last_step = null",
    )
    .run(secret, Date.now(), email).changes;
  if (changed !== 1) throw new Error(`No account ${email} to give an authenticator app`);
  return secret;
}
