/**
 * What the figures need in the database: an administrator (through
 * `npm run create-admin`, as an operator would), one verified investor who
 * logs in, and bulk investors written with plain SQL into the same database:
 * an SQLite file, or a PostgreSQL database (`{ url }`).
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import { hashPassword } from "../../app/models/account/password.server";
import { searchTextFor } from "../../app/models/investors/search-text.server";
import { totpSecretContext } from "../../migrations/second-factor-at-rest.js";
import { sealSecret } from "../../migrations/secret-box.js";
import { TEST_KEYS } from "../../tests/support/test-keys";
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
/** One investor in fifty has one of these: accented and hyphenated, for the accent-insensitive search. */
const ACCENTED = ["Miguel Ángel Ortega-Sánchez", "Zoë Ødegård-Łukasiewicz", "Jürgen Groß", "Anaïs Le Bœuf-Çelik"];

/** Where the run's data lives: the SQLite file's path, or a PostgreSQL database's URL. */
export type BenchDatabase = string | { url: string };

/** The settings that point a server or a script at `database`. */
export function databaseEnv(database: BenchDatabase): Record<string, string> {
  return typeof database === "string" ? { DATABASE_PATH: database } : { DATABASE_URL: database.url };
}

export async function createAdministrator(database: BenchDatabase) {
  const result = spawnSync("npm", ["run", "--silent", "create-admin", "--", ADMIN.email], {
    cwd: root,
    env: {
      ...serverEnv(typeof database === "string" ? database : ""),
      ...databaseEnv(database),
      ADMIN_PASSWORD: ADMIN.password,
    },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`create-admin failed: ${result.stderr || result.stdout}`);
  // The set-up the administrator would do at the first sign-in, done here once.
  await withDatabase(database, async (db) => {
    const [{ id }] = (await db.all("select id from users where email = ?", [ADMIN.email])) as { id: string }[];
    // Sealed under the server's DATA_KEY, as the app stores it.
    const secret = sealSecret(TEST_KEYS.DATA_KEY, ADMIN.totpSecret, totpSecretContext(id));
    await db.run("insert into totp_credentials (user_id, secret, confirmed_at) values (?, ?, ?)", [
      id,
      secret,
      Date.now(),
    ]);
  });
}

/** The investor whose logins are measured: verified, with a hash made by the app's own hashPassword. */
export async function createLoginInvestor(database: BenchDatabase): Promise<string> {
  const hash = await hashPassword(INVESTOR.password);
  await withDatabase(database, (db) =>
    insertInvestors(db, [{ email: INVESTOR.email, fullName: "Bench Investor", hash, n: 0 }]),
  );
  return hash;
}

/** Tops the investors up to `total` (the login investor counts), oldest first, a third each not sent / sent / signed. */
export async function seedInvestorsUpTo(database: BenchDatabase, total: number) {
  await withDatabase(database, async (db) => {
    const [{ n: have }] = await db.all("select count(*) as n from users where role = 'investor'");
    const hash = "$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzZWVkc2FsdA$not-a-real-hash-nobody-logs-in-with-it";
    const rows = [];
    for (let n = Number(have); n < total; n += 1) {
      const name =
        n % 50 === 7
          ? ACCENTED[Math.floor(n / 50) % ACCENTED.length]
          : `${GIVEN[n % GIVEN.length]} ${SURNAMES[Math.floor(n / GIVEN.length) % SURNAMES.length]}`;
      rows.push({ email: `investor${n}@example.com`, fullName: `${name} ${n}`, hash, n });
    }
    await insertInvestors(db, rows);
  });
}

/** `n` orders the rows in time and, unless `nda` says otherwise, picks the NDA state (0 none, 1 sent, 2 signed). */
export type Seed = { email: string; fullName: string; hash: string; n: number; nda?: 0 | 1 | 2 };

/** Verified investors written straight into the database (their hash says which password logs them in). */
export async function addInvestors(database: BenchDatabase, seeds: Seed[]) {
  await withDatabase(database, (db) => insertInvestors(db, seeds));
}

const INVESTOR_COLUMNS = [
  "id",
  "email",
  "password_hash",
  "full_name",
  "search_text",
  "address",
  "is_nda_sent",
  "is_nda_signed",
  "role",
  "email_verified_at",
  "created_at",
  "updated_at",
];

function insertInvestors(db: SeedSql, rows: Seed[]) {
  const start = Date.UTC(2025, 0, 1);
  return db.insertMany(
    "users",
    INVESTOR_COLUMNS,
    rows.map((row) => {
      const at = start + row.n * 60_000;
      const nda = row.nda ?? row.n % 3;
      return [
        randomUUID(),
        row.email,
        row.hash,
        row.fullName,
        searchTextFor({ fullName: row.fullName, email: row.email }),
        `${row.n} Market Street, Springfield, IL 62701`,
        nda >= 1 ? 1 : 0,
        nda === 2 ? 1 : 0,
        "investor",
        at,
        at,
        at,
      ];
    }),
  );
}

/** The few statements seeding needs, in either engine: `?` placeholders, many rows at a time. */
export type SeedSql = {
  all(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  run(text: string, params?: unknown[]): Promise<void>;
  insertMany(table: string, columns: string[], rows: unknown[][]): Promise<void>;
};

/** The tables whose rows the triggers on a table write (migrations 003, 004 and 024). */
const TRIGGER_WRITTEN_TABLES: Record<string, string[]> = {
  users: ["investor_counts", "users_version"],
  page_times: ["document_page_reading", "document_reader_reading", "reader_day_reading"],
};

export async function withDatabase(database: BenchDatabase, work: (db: SeedSql) => Promise<void>) {
  if (typeof database === "string") {
    const db = new Database(database);
    try {
      db.pragma("busy_timeout = 5000");
      await work({
        all: async (text, params = []) => db.prepare(text).all(...params) as Record<string, unknown>[],
        run: async (text, params = []) => void db.prepare(text).run(...params),
        insertMany: async (table, columns, rows) => {
          const insert = db.prepare(
            `insert into ${table} (${columns.join(", ")}) values (${columns.map(() => "?").join(", ")})`,
          );
          db.transaction(() => {
            for (const row of rows) insert.run(...row);
          })();
        },
      });
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  try {
    await work({
      all: async (text, params = []) => (await client.query(numbered(text), params)).rows,
      run: async (text, params = []) => void (await client.query(numbered(text), params)),
      insertMany: async (table, columns, rows) => {
        // A transaction a batch of 1,000: in one for them all, each trigger's update of its counter row
        // walked past every version the transaction had left there before it (100,000 users: 176 s, not 15).
        for (let at = 0; at < rows.length; at += 1000) {
          const batch = rows.slice(at, at + 1000);
          const tuples = batch.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(", ")})`);
          await client.query(`insert into ${table} (${columns.join(", ")}) values ${tuples.join(", ")}`, batch.flat());
        }
        // What autovacuum does soon after a bulk load, done now: the planner's statistics, and the visibility
        // map that lets an index-only scan skip the table (the deep page passes 25,000 index entries).
        await client.query(`vacuum analyze ${table}`);
        // The rows the table's triggers keep up to date took a version for every row inserted, in new pages
        // that vacuum frees but keeps: after 100,000 users each counter table was 500-541 pages for its few
        // rows, and every count read them all (0.5 ms). Signups one at a time leave it a page, as this does.
        // The reading totals likewise: a statement of 1,000 page-time rows updates each total row it meets
        // twenty times over, and none of those versions is dead before the statement ends, so neither pruning
        // nor the index's bottom-up deletion can take them (at 200,000 rows the ranking's index was 2,587
        // pages for 10,000 entries); batches committed one at a time leave them dead at once.
        for (const written of TRIGGER_WRITTEN_TABLES[table] ?? []) await client.query(`vacuum full ${written}`);
      },
    });
  } finally {
    await client.end();
  }
}
