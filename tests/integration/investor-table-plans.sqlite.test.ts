/**
 * SQLite's plans for the investor table's pages: each sort read from its own partial investor index
 * (migrations/005), with the role written into the SQL so the kept statement is planned once. SQLite
 * only: these are SQLite's indexes and planner (PostgreSQL's figures are the bench's).
 */
import Database from "better-sqlite3";
import { loadInvestorTable } from "~/models/investor-admin.server";
import { createUser } from "../support/factories";
import { useFreshDatabase } from "../support/test-database";

let database: Awaited<ReturnType<typeof useFreshDatabase>>;

beforeAll(async () => {
  database = await useFreshDatabase();
  for (let i = 0; i < 120; i++) {
    await createUser({ named: true, fullName: `Investor ${String(119 - i).padStart(3, "0")}`, sent: i % 3 === 1 });
  }
});
afterAll(async () => database.cleanup());

const table = (query: string) => loadInvestorTable(new URL(`http://localhost/financing?${query}`));

it("reads each sort's page from its own investor index, in order", async () => {
  // The investor indexes hold investors only (migrations/005). A page query that did not use them would read
  // and sort the whole table, and one that bound its role would be planned again on every run; no result
  // would show either.
  const sqlite = new Database(process.env.DATABASE_PATH!, { readonly: true });
  const all = vi.spyOn(Object.getPrototypeOf(sqlite.prepare("select 1")), "all");
  try {
    for (const [sort, index] of [
      ["registered", "users_investors_by_registration"],
      ["name", "users_investors_by_name"],
      ["email", "users_investors_by_email"],
    ]) {
      all.mockClear();
      await table(`sort=${sort}&page=2`);
      const statements = all.mock.contexts as Database.Statement[];
      const at = statements.findIndex((statement) => statement.source.includes('"position"'));
      const plan = sqlite
        .prepare(`explain query plan ${statements[at].source}`)
        .all(all.mock.calls[at][0])
        .map((step) => (step as { detail: string }).detail);
      expect(plan, sort).toContain(`SCAN users USING COVERING INDEX ${index}`);
      expect(statements[at].source, sort).toContain(`"role" = 'investor'`);
    }
  } finally {
    all.mockRestore();
    sqlite.close();
  }
});
