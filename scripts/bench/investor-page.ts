/**
 * The investor page's figure: GET /financing/investors/:id (account, NDA steps, the first page of
 * activity) for the login investor, among the table's investors, with a few thousand rows of their
 * own activity in the audit trail. The rows are sealed into the trail's chain as the app seals them
 * (migrations/audit-chain.js, under the run's AUDIT_KEY), so the trail still verifies.
 */
import { AUDIT_ROW_COLUMNS, auditRowHash, chainKeyOf, GENESIS_HASH } from "../../migrations/audit-chain.js";
import { TEST_KEYS } from "../../tests/support/test-keys";
import { config } from "./config";
import { dropIdleConnections, warmUp } from "./measure";
import type { Row } from "./report";
import { INVESTOR, seedInvestorsUpTo, withDatabase, type BenchDatabase } from "./seed";
import { growthRow, judgedAgainstFloors, judgedLatency, SMALL_SIZE_INVESTORS, type GrowthSmallSizes } from "./verdicts";

/** The measured investor's own views and downloads. */
export const INVESTOR_ACTIVITY_ROWS = 3000;
const TARGET_MS = 20;
const WARM_UP = 20;

type InvestorPageRun = {
  database: BenchDatabase;
  rows: Row[];
  adminCookie: () => Promise<string>;
  small: GrowthSmallSizes;
};
/** An indexed page: its cost may grow by half from 1,000 investors to 100,000. */
const GROWTH_LIMIT = 1.5;
/** The page's allowance beyond the framework and its statements: the details, the NDA's steps, the activity. */
const ALLOWANCE_IN_FLOORS = 2;

/** The login investor's id, once their activity (and the NDA's steps) is in the trail; seeded once per database. */
export async function seedInvestorActivity(database: BenchDatabase, count = INVESTOR_ACTIVITY_ROWS): Promise<string> {
  let investorId = "";
  await withDatabase(database, async (db) => {
    const [investor] = (await db.all("select id from users where email = ?", [INVESTOR.email])) as { id: string }[];
    investorId = investor.id;
    const [{ n: have }] = await db.all("select count(*) as n from audit_events where actor_id = ?", [investor.id]);
    if (Number(have) >= count) return;
    const [head] = (await db.all("select id, hash, at from audit_events order by id desc limit 1")) as {
      id: number | string;
      hash: string | null;
      at: number | string;
    }[];
    const key = chainKeyOf(TEST_KEYS.AUDIT_KEY);
    let id = Number(head?.id ?? 0);
    let prevHash = head?.hash ?? GENESIS_HASH;
    // After the head, a second apart: the trail's times grow with its ids, as the audit page's date range expects.
    const start = Math.max(Number(head?.at ?? 0), Date.now() - (count + 2) * 1000);
    const rows: unknown[][] = [];
    const append = (content: {
      actor_id: string | null;
      actor_email: string | null;
      action: string;
      target_id: string | null;
      target_email: string | null;
      details: string | null;
      at: number;
    }) => {
      const row = { ...content, ip: "127.0.0.1" };
      const hash = auditRowHash(key, prevHash, row);
      id += 1;
      rows.push([
        id,
        row.actor_id,
        row.actor_email,
        row.action,
        row.target_id,
        row.target_email,
        row.details,
        row.ip,
        row.at,
        prevHash,
        hash,
      ]);
      prevHash = hash;
    };
    for (const action of ["nda.sent.changed", "nda.signed.changed"]) {
      append({
        actor_id: null,
        actor_email: "bench-admin@example.com",
        action,
        target_id: investor.id,
        target_email: INVESTOR.email,
        details: JSON.stringify({ state: true, isNDASent: true, isNDASigned: action === "nda.signed.changed" }),
        at: start,
      });
    }
    for (let n = 0; n < count; n += 1) {
      const view = n % 4 !== 0;
      append({
        actor_id: investor.id,
        actor_email: INVESTOR.email,
        action: view ? "materials.view" : "file.download",
        target_id: null,
        target_email: null,
        details: JSON.stringify(view ? { page: "/financing/materials" } : { file: "download.pdf", downloadId: `${n}` }),
        at: start + (n + 2) * 1000,
      });
    }
    await db.insertMany("audit_events", [...AUDIT_ROW_COLUMNS], rows);
  });
  return investorId;
}

/** The growth rows' key of the investor page. */
export const INVESTOR_PAGE = "investor page";

/** The page's timings as the database stands, after a warm-up. */
export async function investorPageTiming(run: Pick<InvestorPageRun, "adminCookie">, investorId: string) {
  dropIdleConnections();
  const cookie = await run.adminCookie();
  const path = `/financing/investors/${investorId}`;
  await warmUp(path, { Cookie: cookie }, WARM_UP);
  return judgedLatency(path, { Cookie: cookie });
}

/**
 * The phase: the table's investors, the login investor's activity, then the page judged against its floors and
 * its growth from the small size (1,000 investors and the trail of an empty portal; by the time this phase runs
 * in the whole bench, the audit phase has left a million rows).
 */
export async function investorPage(run: InvestorPageRun) {
  await seedInvestorsUpTo(run.database, config.tableInvestors);
  const investorId = await seedInvestorActivity(run.database);
  const timing = await investorPageTiming(run, investorId);
  const scale = `${config.tableInvestors.toLocaleString("en-US")} investors, ${INVESTOR_ACTIVITY_ROWS.toLocaleString("en-US")} activity rows`;
  run.rows.push(
    await judgedAgainstFloors(`investor page (${scale})`, timing, ALLOWANCE_IN_FLOORS, `≤ ${TARGET_MS} ms`),
  );
  const small = run.small.get(INVESTOR_PAGE);
  if (small) {
    run.rows.push(
      growthRow(
        INVESTOR_PAGE,
        { timing: small.timing, size: SMALL_SIZE_INVESTORS },
        { timing, size: config.tableInvestors },
        GROWTH_LIMIT,
      ),
    );
  }
}
