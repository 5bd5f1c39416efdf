/**
 * The investor table's search, on either engine: accents, case and punctuation ignored, the words in any
 * order (docs/requirements.md, "The investor table"), through the table, the CSV export and every write of
 * a name or an address; and migration 012's backfill of the users stored before it.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { inject } from "vitest";
import { registerAccount } from "~/models/account/sign-up.server";
import { getUserByEmail } from "~/models/account/user.server";
import { createOrPromoteAdministrator } from "~/models/administrators/create-admin.server";
import { setNameAndAddress } from "~/models/investors/investor-profile.server";
import { investorsForExport, loadInvestorTable } from "~/models/investors/investor-table.server";
import * as csvRoute from "~/routes/financing.investors[.]csv";
import { closeDatabase, getDb, migrateDatabase, type UsersTable } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { migrations } from "../../migrations/index.js";
import { openSqlite } from "../../migrations/migrator.js";
import { migrations as postgresMigrations } from "../../migrations/postgres/index.js";
import { createDatabase } from "../../scripts/throwaway-postgres";
import { callRoute, type RouteModule } from "../support/api-routes";
import { createUser, sessionCookieFor } from "../support/factories";
import { useIntegration } from "../support/integration";
import { userValues } from "../support/user-values";

const { database } = useIntegration({ mail: true });

const MIGUEL = { fullName: "Miguel Ángel Ortega-Sánchez", email: "m.ortega@example.com" };
const table = (query: string) => loadInvestorTable(new URL(`http://localhost/financing?${query}`));
const emails = async (query: string) => (await table(query)).rows.map((row) => row.email);

describe("the search", () => {
  beforeAll(async () => {
    await createUser({ ...MIGUEL, sent: true });
    await createUser({ fullName: "Angela Merkel-Sanchez", email: "angela@example.com" });
    await createUser({ fullName: "Jürgen Groß", email: "jg@example.com" });
    await createUser({ fullName: "Ørjan Ødegård", email: "oo@example.com" });
    await createUser({ fullName: "Ángel Admin", email: "angel.admin@example.com", role: "administrator" });
  });

  it("finds a name whatever its accents, case and punctuation, its words in any order", async () => {
    expect(await emails("q=angel")).toEqual(["angela@example.com", MIGUEL.email]);
    expect(await emails("q=ortega+sanchez")).toEqual([MIGUEL.email]);
    expect(await emails("q=SANCHEZ,+Miguel")).toEqual([MIGUEL.email]);
    expect(await emails("q=%C3%81NGEL+ortega")).toEqual([MIGUEL.email]);
    expect(await emails("q=sanchez+-+merkel")).toEqual(["angela@example.com"]);
    expect(await emails("q=strasse+GROSS")).toEqual([]);
    expect(await emails("q=jurgen+gross")).toEqual(["jg@example.com"]);
    expect(await emails("q=odegard")).toEqual(["oo@example.com"]);
    expect(await emails("q=example+ortega")).toEqual([MIGUEL.email]);
  });

  it("counts what it finds, with the NDA filter, and finds no administrator", async () => {
    expect((await table("q=angel")).total).toBe(2);
    expect((await table("q=angel&nda=sent")).total).toBe(1);
    expect(await emails("q=angel&nda=not-sent")).toEqual(["angela@example.com"]);
    expect(await emails("q=admin")).toEqual([]);
  });

  it("matches everyone for a query that folds to nothing, and no one for a word nobody has", async () => {
    const everyone = (await table("")).total;
    expect((await table("q=%25")).total).toBe(everyone);
    expect((await table("q=_+-+,")).total).toBe(everyone);
    expect(await emails("q=zzzz")).toEqual([]);
  });

  it("gives the CSV export the same investors", async () => {
    expect(
      (await investorsForExport(new URL("http://localhost/financing.csv?q=Sanchez,+MIGUEL"))).map((row) => row.email),
    ).toEqual([MIGUEL.email]);
    const admin = await createUser({ role: "administrator" });
    const response = await callRoute(csvRoute as unknown as RouteModule, {
      path: "/financing/investors.csv?q=angel&sort=email&dir=asc",
      headers: { Cookie: await sessionCookieFor(admin.id) },
    });
    expect(response.status).toBe(200);
    const lines = (await response.text()).trimEnd().split("\r\n").slice(1);
    expect(lines.map((line) => line.split(",")[1])).toEqual(['"angela@example.com"', `"${MIGUEL.email}"`]);
  });
});

describe("every write of a name or an address", () => {
  const stored = async (email: string) =>
    (await getDb().selectFrom("users").select("search_text").where("email", "=", email).executeTakeFirstOrThrow())
      .search_text;

  it("stores the search text beside them: sign-up, create-admin, and the name and address", async () => {
    expect(
      await registerAccount({ email: "zoë.new@example.com", password: "Correct-horse-battery-9", ip: "192.0.2.1" }),
    ).toEqual({
      ok: true,
    });
    expect(await stored("zoë.new@example.com")).toBe("zoe new example com");

    const { user: admin } = await createOrPromoteAdministrator({
      email: "héloïse.admin@example.com",
      password: "Correct-horse-battery-9",
    });
    expect(await stored(admin.email)).toBe("heloise admin example com");

    const investor = await getUserByEmail("zoë.new@example.com");
    const result = await setNameAndAddress({
      actor: admin,
      email: "zoë.new@example.com",
      fullName: "Zoë  Ødegård-Łukasiewicz",
      address: "1 Main Street",
    });
    expect(result.ok).toBe(true);
    expect(await stored("zoë.new@example.com")).toBe("zoe odegard lukasiewicz zoe new example com");
    expect(await emails("q=lukasiewicz+zoe")).toEqual([investor!.email]);
  });
});

describe("migration 012 on a database made before it", () => {
  /** The users table as it was before 012. */
  type Before012 = { users: Omit<UsersTable, "search_text"> };

  async function databaseBefore012(): Promise<Kysely<Before012>> {
    await closeDatabase();
    let db: Kysely<Before012>;
    if (database.engine === "postgres") {
      const url = await createDatabase(inject("postgresUrl"), `before_${randomBytes(6).toString("hex")}`);
      process.env.DATABASE_URL = url;
      db = new Kysely<Before012>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
      });
    } else {
      const file = path.join(database.dir, "before-012.sqlite");
      process.env.DATABASE_PATH = file;
      db = new Kysely<Before012>({ dialect: new SqliteDialect({ database: openSqlite(file) }) });
    }
    const history = database.engine === "postgres" ? postgresMigrations : migrations;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => history as never } });
    expect((await migrator.migrateTo("011_last_sign_in")).error).toBeUndefined();
    return db;
  }

  it("writes every stored user's search text, a batch at a time, and the search finds them", async () => {
    const old = await databaseBefore012();
    const users = [
      userValues(MIGUEL),
      ...Array.from({ length: 2500 }, (_, i) =>
        userValues({ fullName: `Investor ${i}`, email: `old.${i}@example.com` }),
      ),
    ];
    try {
      await old.transaction().execute(async (trx) => {
        for (let at = 0; at < users.length; at += 200) {
          const batch = users
            .slice(at, at + 200)
            .map(
              ({ search_text: _, created_by: _013, created_via: _alsoFrom013, address_lines: _019, ...before012 }) =>
                before012,
            );
          await trx.insertInto("users").values(batch).execute();
        }
      });
    } finally {
      await old.destroy();
    }

    resetEnvForTests();
    await migrateDatabase();

    const rows = await getDb().selectFrom("users").select(["email", "search_text"]).execute();
    expect(rows).toHaveLength(users.length);
    expect(rows.filter((row) => row.search_text === "")).toEqual([]);
    expect(rows.find((row) => row.email === MIGUEL.email)?.search_text).toBe(
      "miguel angel ortega sanchez m ortega example com",
    );
    expect(await emails("q=SANCHEZ,+Miguel")).toEqual([MIGUEL.email]);
    expect((await table("q=investor+2499")).total).toBe(1);
  });
});
