/**
 * The investor table's accent-insensitive search at the table's size (docs/performance.md): a few searches,
 * each timed as the administrator's page, with the search's total counted afresh every time. A total is kept
 * until `users_version` moves (app/models/investors/investor-table.server.ts); moving it before each request, untimed,
 * times the search as it runs after any write, not the kept total.
 */
import { config } from "./config";
import { dropIdleConnections, request, timedRequests, warmUp } from "./measure";
import type { Row } from "./report";
import { seedInvestorsUpTo, withDatabase, type BenchDatabase } from "./seed";
import { frameworkFloor, judgedAgainstFloors } from "./verdicts";

const SEARCHES = [
  { name: "one word (angel)", q: "angel" },
  { name: "two words in reverse order (sanchez ortega)", q: "sanchez ortega" },
  { name: "accented (ÁNGEL Sánchez)", q: "ÁNGEL Sánchez" },
  { name: "a word nobody has (zqxj)", q: "zqxj" },
];

const TARGET_MS = 50;

/** The table's allowance beyond the framework and the search's statements: rendering its 50 rows. */
const ALLOWANCE_IN_FLOORS = 2.5;

/** Rows for docs/performance.md: one a search, each p95 over config.samples requests. */
export async function search(run: { database: BenchDatabase; rows: Row[]; adminCookie: () => Promise<string> }) {
  await seedInvestorsUpTo(run.database, config.tableInvestors);
  dropIdleConnections();
  const headers = { Cookie: await run.adminCookie() };
  const at = config.tableInvestors.toLocaleString("en-US");
  await withDatabase(run.database, async (db) => {
    for (const { name, q } of SEARCHES) {
      const path = `/financing?q=${encodeURIComponent(q)}`;
      await warmUp(path, headers, 10);
      const timing = await timedRequests(
        config.samples,
        async () => {
          await db.run("update users_version set n = n + 1");
          const answer = await request(path, { headers });
          if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}, not 200.`);
          return answer;
        },
        frameworkFloor,
      );
      run.rows.push(
        await judgedAgainstFloors(
          `accent-insensitive search at ${at} investors (total counted each time): ${name}`,
          timing,
          ALLOWANCE_IN_FLOORS,
          `≤ ${TARGET_MS} ms`,
        ),
      );
    }
  });
}
