/**
 * SQLite's plans for the administrators' own queries: the list of the administrators page and the count
 * a removal checks read the administrators' partial index (migrations/018), not every investor's row; the
 * pending invitations are read from their own table even once ANALYZE has counted many users and no
 * invitations. SQLite only: these are SQLite's index and planner (PostgreSQL's figure is the bench's).
 */
import Database from "better-sqlite3";
import { listPendingInvitations } from "~/models/administrators/admin-invitation.server";
import { listAdministrators, removeAdministrator } from "~/models/administrators/administrators.server";
import { createUser } from "../support/factories";
import { useIntegration } from "../support/integration";
import { plansOfStatements } from "../support/sqlite-plans";

useIntegration();
beforeAll(async () => {
  for (let i = 0; i < 50; i++) await createUser();
});

/** The plans of the statements `work` ran that read from `users` filtered by the administrators' role. */
async function rolePlans(work: () => Promise<unknown>) {
  const plans = await plansOfStatements(work, (source) => source.includes(`"role" = 'administrator'`));
  return plans.map(({ plan }) => plan);
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

it("reads the pending invitations without walking the users, whatever ANALYZE has counted", async () => {
  const sqlite = new Database(process.env.DATABASE_PATH!);
  sqlite.exec("analyze");
  sqlite.close();
  const plans = await plansOfStatements(listPendingInvitations, (source) => source.includes("admin_invitations"));
  expect(plans).toHaveLength(1);
  expect(plans[0].plan.join(" | ")).not.toMatch(/SCAN (users|"users")/);
});
