/**
 * Migrations 009 and 010 on a database made before them, on either engine: 009 encrypts the TOTP
 * secrets stored in clear under DATA_KEY, forgets set-ups that belonged to no session, and shortens a
 * password-only administrator session to 15 minutes from its start; 010 re-seals the SHA-256 chain
 * under AUDIT_KEY, records the re-seal, and makes the trail append-only.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Kysely, PostgresDialect, sql, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { inject } from "vitest";
import { verifyAuditChain } from "~/models/audit/audit-chain.server";
import { acceptTotpCode } from "~/models/second-factor/totp.server";
import { closeDatabase, getDb, migrateDatabase, type Database } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { GENESIS_HASH, sha256RowHash } from "../../migrations/audit-chain.js";
import { migrations } from "../../migrations/index.js";
import { openSqlite } from "../../migrations/migrator.js";
import { migrations as postgresMigrations } from "../../migrations/postgres/index.js";
import { createDatabase } from "../../scripts/throwaway-postgres";
import { useIntegration } from "../support/integration";
import { newTotpSecret, totpCode } from "../support/totp";
import { userValues, type UserValues } from "../support/user-values";

const { database } = useIntegration({ database: "each" });

/** A database of this test's engine migrated only as far as the last migration before 009. */
async function databaseBefore009(): Promise<Kysely<Database>> {
  await closeDatabase();
  if (database.engine === "postgres") {
    const url = await createDatabase(inject("postgresUrl"), `before_${randomBytes(6).toString("hex")}`);
    process.env.DATABASE_URL = url;
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
    await migrateTo(db, postgresMigrations, "002_investor_counts_lock_order");
    return db;
  }
  const file = path.join(database.dir, "before-009.sqlite");
  process.env.DATABASE_PATH = file;
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqlite(file) }) });
  await migrateTo(db, migrations, "008_audit_chain");
  return db;
}

async function migrateTo(db: Kysely<Database>, history: Record<string, unknown>, last: string) {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => history as never } });
  expect((await migrator.migrateTo(last)).error).toBeUndefined();
}

it("encrypts clear secrets, drops unbound set-ups, shortens password-only admin sessions, and re-seals the trail", async () => {
  const secret = newTotpSecret();
  const [investor, admin] = [
    userValues({ email: "clear@example.com" }),
    userValues({ email: "a@example.com", role: "administrator" }),
  ];
  const started = Date.now() - 60_000;
  const old = await databaseBefore009();
  let prev = GENESIS_HASH;
  try {
    // As users were stored before 011 (last_login_at), 012 (search_text), 013 (created_by, created_via) and
    // 019 (address_lines).
    type Before011 = Omit<UserValues, "search_text" | "last_login_at" | "created_by" | "created_via" | "address_lines">;
    await (old as unknown as Kysely<{ users: Before011 }>)
      .insertInto("users")
      .values(
        [investor, admin].map(
          ({
            search_text: _012,
            last_login_at: _011,
            created_by: _013,
            created_via: _alsoFrom013,
            address_lines: _019,
            ...before011
          }) => before011,
        ),
      )
      .execute();
    await old.insertInto("totp_credentials").values({ user_id: investor.id, secret, confirmed_at: started }).execute();
    // A set-up in progress, as 007 stored it: on the account, in columns 009 drops.
    await sql`insert into totp_credentials (user_id, pending_secret, pending_created_at) values (${admin.id}, ${newTotpSecret()}, ${started})`.execute(
      old,
    );
    await old
      .insertInto("sessions")
      .values({
        id_hash: "h".repeat(64),
        user_id: admin.id,
        created_at: started,
        last_seen_at: started,
        expires_at: started + 12 * 3_600_000,
        auth_method: "password",
      })
      .execute();
    for (let i = 1; i <= 3; i++) {
      const row = {
        actor_id: null,
        actor_email: `old${i}@example.com`,
        action: "old.event",
        target_id: null,
        target_email: null,
        details: null,
        ip: null,
        at: started + i,
      };
      const hash = sha256RowHash(prev, row);
      await old
        .insertInto("audit_events")
        .values({ id: i, ...row, prev_hash: prev, hash })
        .execute();
      prev = hash;
    }
  } finally {
    await old.destroy();
  }

  resetEnvForTests();
  await migrateDatabase();

  const stored = await getDb().selectFrom("totp_credentials").selectAll().execute();
  expect(stored).toHaveLength(1);
  expect(stored[0].secret).toMatch(/^v1\./);
  expect(stored[0].secret).not.toContain(secret);
  expect(Object.keys(stored[0]).sort()).toEqual(["confirmed_at", "last_step", "secret", "user_id"]);
  expect(await acceptTotpCode(investor.id, totpCode(secret, Date.now()))).toBe(true);
  const session = await getDb().selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  expect(Number(session.expires_at)).toBe(started + 15 * 60_000);

  expect(await verifyAuditChain()).toMatchObject({ ok: true, rows: 4, last: { id: 4 } });
  const reseal = await getDb().selectFrom("audit_events").selectAll().where("id", "=", 4).executeTakeFirstOrThrow();
  expect(reseal.action).toBe("audit.resealed");
  expect(JSON.parse(reseal.details!)).toMatchObject({ rows: 3, previousHead: prev, previousChain: "intact", gaps: [] });
  await expect(sql`update audit_events set ip = '192.0.2.9' where id = 1`.execute(getDb())).rejects.toThrow(
    /append-only/,
  );
});
