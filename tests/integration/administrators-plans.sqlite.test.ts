/**
 * SQLite's plans for the administrators' own queries: the list of the administrators page and the count
 * a removal checks read the administrators' partial index (migrations/018), not every investor's row.
 * SQLite only: these are SQLite's index and planner (PostgreSQL's figure is the bench's).
 */
import Database from "better-sqlite3";
import { listAdministrators, removeAdministrator } from "~/models/administrators.server";
import { createUser } from "../support/factories";
import { useFreshDatabase } from "../support/test-database";

let database: Awaited<ReturnType<typeof useFreshDatabase>>;

beforeAll(async () => {
  database = await useFreshDatabase();
  for (let i = 0; i < 50; i++) await createUser();
});
afterAll(async () => database.cleanup());

/** The plans of the statements `work` ran that read from `users` filtered by role. */
async function rolePlans(work: () => Promise<unknown>) {
  const sqlite = new Database(process.env.DATABASE_PATH!, { readonly: true });
  const all = vi.spyOn(Object.getPrototypeOf(sqlite.prepare("select 1")), "all");
  try {
    await work();
    const statements = all.mock.contexts as Database.Statement[];
    return statements.flatMap((statement, at) =>
      statement.source.includes(`"role" = 'administrator'`)
        ? [
            sqlite
              .prepare(`explain query plan ${statement.source}`)
              .all(all.mock.calls[at][0])
              .map((step) => (step as { detail: string }).detail),
          ]
        : [],
    );
  } finally {
    all.mockRestore();
    sqlite.close();
  }
}

it("lists the administrators, oldest first, from their own index", async () => {
  const first = await createUser({ role: "administrator" });
  const second = await createUser({ role: "administrator" });
  let listed: Awaited<ReturnType<typeof listAdministrators>> = [];
  const [plan] = await rolePlans(async () => (listed = await listAdministrators()));
  expect(listed.map((entry) => entry.id)).toEqual([first.id, second.id]);
  expect(plan.join(" | ")).toContain("USING INDEX users_administrators");
  expect(plan.join(" | ")).not.toContain("TEMP B-TREE");

  // The removal's count of the administrators left reads the same index.
  const plans = await rolePlans(() => removeAdministrator({ actor: first, id: second.id, ip: "127.0.0.1" }));
  expect(plans.some((steps) => steps.some((step) => step.includes("users_administrators")))).toBe(true);
  expect(await listAdministrators()).toHaveLength(1);
});
