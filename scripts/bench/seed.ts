/**
 * What the figures need in the database: an administrator (through
 * `npm run create-admin`, as an operator would), one verified investor who
 * logs in, and bulk investors written with plain SQL into the same file.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { hashPassword } from "../../app/models/password.server";
import { newTotpSecret } from "../../tests/support/totp";
import { root } from "./config";
import { serverEnv } from "./server";

/** The administrator, whose authenticator app (this secret) gives the code an administrator's sign-in needs. */
export const ADMIN = {
  email: "bench-admin@example.com",
  password: "Bench-admin-password-2026!",
  totpSecret: newTotpSecret(),
};
export const INVESTOR = { email: "bench-investor@example.com", password: "Bench-investor-password-2026!" };

const SURNAMES = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
];
const GIVEN = ["Ada", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemal", "Lena"];

export function createAdministrator(databasePath: string) {
  const result = spawnSync("npm", ["run", "--silent", "create-admin", "--", ADMIN.email], {
    cwd: root,
    env: { ...serverEnv(databasePath), ADMIN_PASSWORD: ADMIN.password },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`create-admin failed: ${result.stderr || result.stdout}`);
  // The set-up the administrator would do at the first sign-in, done here once.
  withDatabase(databasePath, (db) =>
    db
      .prepare(
        "insert into totp_credentials (user_id, secret, confirmed_at) select id, ?, ? from users where email = ?",
      )
      .run(ADMIN.totpSecret, Date.now(), ADMIN.email),
  );
}

/** The investor whose logins are measured: verified, with a hash made by the app's own hashPassword. */
export async function createLoginInvestor(databasePath: string): Promise<string> {
  const hash = await hashPassword(INVESTOR.password);
  withDatabase(databasePath, (db) =>
    insertInvestors(db, [{ email: INVESTOR.email, fullName: "Bench Investor", hash, n: 0 }]),
  );
  return hash;
}

/** Tops the investors up to `total` (the login investor counts), oldest first, a third each not sent / sent / signed. */
export function seedInvestorsUpTo(databasePath: string, total: number) {
  withDatabase(databasePath, (db) => {
    const have = (db.prepare("select count(*) as n from users where role = 'investor'").get() as { n: number }).n;
    const hash = "$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzZWVkc2FsdA$not-a-real-hash-nobody-logs-in-with-it";
    const rows = [];
    for (let n = have; n < total; n += 1) {
      const name = `${GIVEN[n % GIVEN.length]} ${SURNAMES[Math.floor(n / GIVEN.length) % SURNAMES.length]}`;
      rows.push({ email: `investor${n}@example.com`, fullName: `${name} ${n}`, hash, n });
    }
    insertInvestors(db, rows);
  });
}

/** `n` orders the rows in time and, unless `nda` says otherwise, picks the NDA state (0 none, 1 sent, 2 signed). */
export type Seed = { email: string; fullName: string; hash: string; n: number; nda?: 0 | 1 | 2 };

/** Verified investors written straight into the file (their hash says which password logs them in). */
export function addInvestors(databasePath: string, seeds: Seed[]) {
  withDatabase(databasePath, (db) => insertInvestors(db, seeds));
}

function insertInvestors(db: Database.Database, rows: Seed[]) {
  const insert = db.prepare(
    `insert into users (id, email, password_hash, full_name, address, is_nda_sent, is_nda_signed, role,
       email_verified_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, 'investor', ?, ?, ?)`,
  );
  const start = Date.UTC(2025, 0, 1);
  db.transaction(() => {
    for (const row of rows) {
      const at = start + row.n * 60_000;
      const nda = row.nda ?? row.n % 3;
      insert.run(
        randomUUID(),
        row.email,
        row.hash,
        row.fullName,
        `${row.n} Market Street, Springfield, IL 62701`,
        nda >= 1 ? 1 : 0,
        nda === 2 ? 1 : 0,
        at,
        at,
        at,
      );
    }
  })();
}

function withDatabase(databasePath: string, work: (db: Database.Database) => void) {
  const db = new Database(databasePath);
  try {
    db.pragma("busy_timeout = 5000");
    work(db);
  } finally {
    db.close();
  }
}
