/**
 * Who read what: the reading report (/financing/library/reading) and one document's readers
 * (/financing/library/reading/:id) at 200,000 openings over 20 documents by 10,000 investors, and each page's
 * growth from 2,000 openings (measured first, when the database holds no more). The first library's four
 * documents are topped up to twenty (each a new document whose version shares the first PDF's blob: the pages
 * read no file), then openings are written in bulk, spread over a year.
 */
import { randomUUID } from "node:crypto";
import { dropIdleConnections, warmUp } from "./measure";
import type { Row } from "./report";
import { seedInvestorsUpTo, withDatabase, type BenchDatabase } from "./seed";
import { growthRow, judgedAgainstFloors, judgedLatency, type Judged } from "./verdicts";

const DOCUMENTS = 20;
const OPENINGS = 200_000;
const SMALL_OPENINGS = 2_000;
/** Earlier phases' copies are openings too: the small size is whatever they left, up to a twentieth of the large. */
const SMALL_AT_MOST = OPENINGS / 20;
/** Both pages are indexed (the readers page shows one page of readers), so they may grow by half at most. */
const GROWTH_LIMIT = 1.5;
const READING_INVESTORS = 10_000;
const TARGET_MS = 50;
const WARM_UP = 20;
const SPAN_MS = 365 * 86_400_000;

/** The pages' allowance beyond the framework and their statements: a table of documents or of readers. */
const ALLOWANCE_IN_FLOORS = 3;

type ReadingRun = {
  database: BenchDatabase;
  rows: Row[];
  adminCookie: () => Promise<string>;
};

/** Tops the library up to twenty documents and the openings up to `openings`; returns the most read document's id. */
async function seedOpenings(database: BenchDatabase, openings: number): Promise<string> {
  await seedInvestorsUpTo(database, READING_INVESTORS);
  let busiest = "";
  await withDatabase(database, async (db) => {
    const versions = (await db.all(
      "select d.id as document_id, d.kind, v.id as version_id, v.blob_id, v.size, v.sha256 from documents d join document_versions v on v.document_id = d.id order by d.position, v.number",
    )) as { document_id: string; kind: string; version_id: string; blob_id: string; size: number; sha256: string }[];
    const pdf = versions.find((v) => v.kind === "pdf");
    if (!pdf) throw new Error("The first library has no PDF to share.");
    const documents = versions.map((v) => ({ id: v.document_id, version: v.version_id }));
    const [{ n: have }] = await db.all("select count(*) as n from documents");
    const added: unknown[][] = [];
    const addedVersions: unknown[][] = [];
    const at = Date.now();
    for (let n = Number(have); n < DOCUMENTS; n += 1) {
      const id = randomUUID();
      const version = randomUUID();
      added.push([id, `Bench document ${n + 1}`, "", "pdf", n + 1, "signed", 1, at, at]);
      addedVersions.push([version, id, 1, "bench.pdf", "application/pdf", pdf.size, pdf.sha256, pdf.blob_id, at]);
      documents.push({ id, version });
    }
    const documentColumns = ["id", "title", "description", "kind", "position", "audience", "published"];
    await db.insertMany("documents", [...documentColumns, "created_at", "updated_at"], added);
    await db.insertMany(
      "document_versions",
      ["id", "document_id", "number", "file_name", "content_type", "size", "sha256", "blob_id", "created_at"],
      addedVersions,
    );

    const [{ n: opened }] = await db.all("select count(*) as n from document_opens");
    const investors = (await db.all("select id from users where role = 'investor' order by created_at limit ?", [
      READING_INVESTORS,
    ])) as { id: string }[];
    // The first documents are read most, as a deck's first pages are: document k gets a share ∝ 1/(k+1).
    const weights = documents.map((_, k) => 1 / (k + 1));
    const total = weights.reduce((sum, w) => sum + w, 0);
    const bounds = weights.map((_, k) => weights.slice(0, k + 1).reduce((sum, w) => sum + w, 0) / total);
    const rows: unknown[][] = [];
    const start = Date.now() - SPAN_MS;
    for (let n = Number(opened); n < openings; n += 1) {
      const pick = ((n * 2654435761) % 1_000_003) / 1_000_003;
      const document =
        documents[
          Math.max(
            0,
            bounds.findIndex((bound) => pick <= bound),
          )
        ];
      const investor = investors[(n * 7919) % investors.length];
      rows.push([
        randomUUID(),
        document.id,
        document.version,
        investor.id,
        start + Math.floor((n / OPENINGS) * SPAN_MS),
      ]);
    }
    await db.insertMany("document_opens", ["id", "document_id", "version_id", "user_id", "opened_at"], rows);
    busiest = documents[0].id;
  });
  return busiest;
}

async function openingCount(database: BenchDatabase): Promise<number> {
  let count = 0;
  await withDatabase(database, async (db) => {
    const [{ n }] = await db.all("select count(*) as n from document_opens");
    count = Number(n);
  });
  return count;
}

/** Both pages' timings at the database's present size, each warmed first. */
async function timedPages(pages: { path: string }[], cookie: string): Promise<Judged[]> {
  for (const page of pages) await warmUp(page.path, { Cookie: cookie }, WARM_UP);
  const timings: Judged[] = [];
  for (const page of pages) timings.push(await judgedLatency(page.path, { Cookie: cookie }));
  return timings;
}

/** The phase: the pages at 2,000 openings (or what earlier phases left, up to 10,000), then at 200,000, and their growth. */
export async function readingReport(run: ReadingRun) {
  const cookie = await run.adminCookie();
  const pagesOf = (busiest: string) => [
    { name: "reading report", path: "/financing/library/reading" },
    { name: "a document's readers (the most read)", path: `/financing/library/reading/${busiest}` },
  ];
  const startedWith = await openingCount(run.database);
  const smallSize = Math.max(startedWith, SMALL_OPENINGS);
  let small: Judged[] | null = null;
  if (startedWith <= SMALL_AT_MOST) {
    const busiest = await seedOpenings(run.database, smallSize);
    dropIdleConnections();
    small = await timedPages(pagesOf(busiest), cookie);
  }
  const pages = pagesOf(await seedOpenings(run.database, OPENINGS));
  dropIdleConnections();
  const large = await timedPages(pages, cookie);
  const scale = `${OPENINGS.toLocaleString("en-US")} openings, ${DOCUMENTS} documents, ${READING_INVESTORS.toLocaleString("en-US")} investors`;
  for (const [at, page] of pages.entries()) {
    run.rows.push(
      await judgedAgainstFloors(`${page.name} (${scale})`, large[at], ALLOWANCE_IN_FLOORS, `≤ ${TARGET_MS} ms`),
    );
    run.rows.push(
      small === null
        ? {
            figure: `growth: ${page.name}`,
            value: `not measured: the database held ${startedWith} openings when the phase began`,
            target: `≤ ${GROWTH_LIMIT}×`,
            pass: false,
          }
        : growthRow(
            `${page.name} (openings)`,
            { timing: small[at], size: smallSize },
            { timing: large[at], size: OPENINGS },
            GROWTH_LIMIT,
          ),
    );
  }
}
