/**
 * SQLite's plans for the investor table's pages: each sort read from its own partial investor index
 * (migrations/005), with the role written into the SQL so the kept statement is planned once; a search's
 * page and total read from an index alone too, the words matched in its search_text (migrations/012).
 * SQLite only: these are SQLite's indexes and planner (PostgreSQL's figures are the bench's).
 */
import { loadInvestorTable } from "~/models/investors/investor-table.server";
import { createUser } from "../support/factories";
import { useIntegration } from "../support/integration";
import { plansOfStatements } from "../support/sqlite-plans";

useIntegration();
beforeAll(async () => {
  for (let i = 0; i < 120; i++) {
    await createUser({ named: true, fullName: `Investor ${String(119 - i).padStart(3, "0")}`, sent: i % 3 === 1 });
  }
});

const SORT_INDEXES = [
  ["registered", "users_investors_by_registration"],
  ["name", "users_investors_by_name"],
  ["email", "users_investors_by_email"],
] as const;

/** The plan of each statement `query`'s table ran that `pick` chooses, by its SQL. */
function plansOf(query: string, pick: (source: string) => boolean) {
  return plansOfStatements(() => loadInvestorTable(new URL(`http://localhost/financing?${query}`)), pick);
}

const isPage = (source: string) => source.includes('"position"');

it("reads each sort's page from its own investor index, in order", async () => {
  // The investor indexes hold investors only (migrations/005). A page query that did not use them would read
  // and sort the whole table, and one that bound its role would be planned again on every run; no result
  // would show either.
  for (const [sort, index] of SORT_INDEXES) {
    const [page] = await plansOf(`sort=${sort}&page=2`, isPage);
    expect(page.plan, sort).toContain(`SCAN users USING COVERING INDEX ${index}`);
    expect(page.source, sort).toContain(`"role" = 'investor'`);
  }
});

it("reads a search's page from the sort's own index, and its total from an index, matching the words there", async () => {
  // SQLite cannot seek a LIKE '%word%': each index carries search_text, so the words are matched in the index
  // walked in the sort's order (stopping at the page's last row), never in the table's rows.
  for (const [sort, index] of SORT_INDEXES) {
    for (const nda of ["all", "sent"]) {
      const query = `q=Sanchez,+MIGUEL&sort=${sort}&nda=${nda}`;
      const [page] = await plansOf(query, isPage);
      expect(page.plan, query).toContain(`SCAN users USING COVERING INDEX ${index}`);
      expect(page.source.match(/"search_text" like \?/g), query).toHaveLength(2);
    }
  }
  // The total's statement by its column: the page's rows count each investor's passkeys with a count(*) too.
  const [total] = await plansOf("q=angel&nda=signed", (source) => source.includes('count(*) as "count"'));
  // Any of the investor indexes serves it (each carries search_text and the flags); which one is the
  // planner's pick among equals, and moved when the users table gained a column (migration 019).
  expect(total.plan).toHaveLength(1);
  expect(total.plan[0]).toMatch(/^SCAN users USING COVERING INDEX users_investors_by_(registration|name|email)$/);
});

it("reads each row's latest accreditation verification with one seek of its index, never a scan", async () => {
  // A correlated subquery runs once a row of the page: without verifications_user it would read every
  // verification for each of the fifty rows.
  const [page] = await plansOf("page=2", isPage);
  const verification = page.plan.filter((step) => /\bv\b/.test(step));
  expect(verification).toContain("SEARCH v USING INDEX verifications_user (user_id=?)");
  expect(verification.filter((step) => step.startsWith("SCAN v"))).toEqual([]);
});
