/**
 * What follows the materials (docs/decisions/0037): the pipeline page (/financing/pipeline) at 1,000
 * investors and at 100,000 (its growth ≤ 1.5×), with a share of them verified, indicating interest and
 * having read; and, at 10,000 questions, the administrators' queue (/financing/question-queue) and the
 * published answers (/financing/questions). Rows are written straight into the database, as the other
 * phases seed theirs. The pipeline's small size is measured before any phase (index.ts, growthSmallSizes).
 */
import { randomUUID } from "node:crypto";
import { dropIdleConnections, warmUp } from "./measure";
import type { Row } from "./report";
import { seedInvestorsUpTo, withDatabase, type BenchDatabase } from "./seed";
import { growthRow, judgedAgainstFloors, judgedLatency, SMALL_SIZE_INVESTORS, type GrowthSmallSizes } from "./verdicts";

const LARGE = 100_000;
const QUESTIONS = 10_000;
const GROWTH_LIMIT = 1.5;
/** What a quiet two-core machine answers each page in: information, not the verdict. */
const REFERENCE_MS = 50;
/**
 * Each page's own work beyond the framework and its statements: a table, or an SVG funnel, of a few dozen rows.
 * Its CPU is under a tenth of a floor beyond F + 1.5 D; its p95 needed 0.72 floors at load 5 (a collection
 * landing in the tail of sixty requests) and under 0.5 at load 11-15, where the floor's own tail is longer.
 */
const ALLOWANCE_IN_FLOORS = 1;
const WARM_UP = 20;
const DAY_MS = 86_400_000;

type AfterMaterialsRun = {
  database: BenchDatabase;
  rows: Row[];
  adminCookie: () => Promise<string>;
  small: GrowthSmallSizes;
};

/** Every part on; a verification and an indication for every tenth investor, a reading for every fifth. */
async function seedPipeline(database: BenchDatabase, total: number) {
  await seedInvestorsUpTo(database, total);
  await withDatabase(database, async (db) => {
    await db.run("update portal_features set questions = 1, qualification = 1, interest = 1");
    const [{ n: indicated }] = await db.all("select count(*) as n from interest_indications");
    const investors = (await db.all("select id from users where role = 'investor' order by created_at")) as {
      id: string;
    }[];
    const [document] = (await db.all("select id from documents order by position limit 1")) as { id: string }[];
    const now = Date.now();
    const verifications: unknown[][] = [];
    const indications: unknown[][] = [];
    const readers: unknown[][] = [];
    investors.forEach(({ id }, n) => {
      if (n < Number(indicated) * 10) return;
      if (n % 10 === 0) {
        const expires = now + ((n % 40) - 10) * DAY_MS;
        verifications.push([randomUUID(), id, "cpa_letter", "2026-01-02", "", expires, now - DAY_MS]);
        indications.push([randomUUID(), id, 25_000 + (n % 7) * 5_000, "", 0, now - (n % 90) * DAY_MS]);
      }
      if (n % 5 === 0) readers.push([document.id, id, 1, now, now]);
    });
    await db.insertMany(
      "verifications",
      ["id", "user_id", "method", "verified_on", "note", "expires_at", "created_at"],
      verifications,
    );
    await db.insertMany(
      "interest_indications",
      ["id", "user_id", "amount", "note", "withdrawn", "created_at"],
      indications,
    );
    const [{ n: read }] = await db.all("select count(*) as n from document_readers");
    if (Number(read) < readers.length) {
      await db.run("delete from document_readers where document_id = ?", [document.id]);
      await db.insertMany(
        "document_readers",
        ["document_id", "user_id", "opens", "first_opened_at", "last_opened_at"],
        readers,
      );
    }
  });
}

/** Tops the questions up to 10,000, a third answered and published, a tenth closed. */
async function seedQuestions(database: BenchDatabase) {
  await withDatabase(database, async (db) => {
    const [{ n: have }] = await db.all("select count(*) as n from questions");
    const investors = (await db.all("select id from users where role = 'investor' order by created_at limit 1000")) as {
      id: string;
    }[];
    const start = Date.now() - 180 * DAY_MS;
    const rows: unknown[][] = [];
    for (let n = Number(have); n < QUESTIONS; n += 1) {
      const published = n % 3 === 0;
      const status = n % 10 === 0 ? "closed" : published ? "answered" : "new";
      const at = start + n * 60_000;
      rows.push([
        randomUUID(),
        investors[n % investors.length]!.id,
        `Question ${n}: what is the minimum investment, and when does the round close?`,
        status,
        published ? `Answer ${n}: $25,000; the round closes at the end of the quarter.` : null,
        published ? at + 3_600_000 : null,
        at,
      ]);
    }
    await db.insertMany(
      "questions",
      ["id", "user_id", "body", "status", "published_answer", "published_at", "created_at"],
      rows,
    );
  });
}

/** Each page judged against the floors measured beside it (scripts/bench/verdicts.ts). */
async function timed(path: string, cookie: string) {
  await warmUp(path, { Cookie: cookie }, WARM_UP);
  return judgedLatency(path, { Cookie: cookie });
}

/** The growth rows' key of the pipeline page. */
export const PIPELINE = "pipeline";

/** The pipeline page with the database topped up to `investors` (and their verifications, indications, readings). */
export async function pipelineAt(run: Pick<AfterMaterialsRun, "database" | "adminCookie">, investors: number) {
  await seedPipeline(run.database, investors);
  dropIdleConnections();
  return timed("/financing/pipeline", await run.adminCookie());
}

export async function afterMaterials(run: AfterMaterialsRun) {
  const cookie = await run.adminCookie();
  const large = await pipelineAt(run, LARGE);
  const atLarge = `at ${LARGE.toLocaleString("en-US")} investors`;
  run.rows.push(await judgedAgainstFloors(`pipeline ${atLarge}`, large, ALLOWANCE_IN_FLOORS, `≤ ${REFERENCE_MS} ms`));
  const small = run.small.get(PIPELINE);
  run.rows.push(
    small
      ? growthRow(
          "pipeline",
          { timing: small.timing, size: SMALL_SIZE_INVESTORS },
          { timing: large, size: LARGE },
          GROWTH_LIMIT,
        )
      : {
          figure: "growth: pipeline",
          value: "not measured: the database held more investors than the small size before the first phase",
          target: `≤ ${GROWTH_LIMIT}×`,
          pass: false,
        },
  );

  await seedQuestions(run.database);
  dropIdleConnections();
  for (const [figure, path] of [
    ["question queue (new) at 10,000 questions", "/financing/question-queue?status=new"],
    ["published Q&A at 10,000 questions", "/financing/questions"],
    ["published Q&A search at 10,000 questions", "/financing/questions?q=quarter"],
  ] as const) {
    const timing = await timed(path, cookie);
    run.rows.push(await judgedAgainstFloors(figure, timing, ALLOWANCE_IN_FLOORS, `≤ ${REFERENCE_MS} ms`));
  }
}
