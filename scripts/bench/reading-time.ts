/**
 * The in-page viewer and time per page (issue 53):
 * - the viewer page's JavaScript (pdf.js's worker apart), and pdf.js's files on no other page;
 * - reading events accepted: p95 of a batch sent at 200 batches a second, against the public page's p95
 *   at the same pace in the same run (≤ 2×);
 * - a document's reading-time report and the engagement ranking at BENCH_PAGE_TIME_ROWS page-time rows
 *   (1,000,000 by default) against 10,000 (p95 growth ≤ 1.5×). Rows are seeded straight into the database,
 *   20 pages a copy, over 20 documents and 10,000 investors, delivered over a year.
 * Self-contained: it seeds what it needs and reads only the build's manifest and the server.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config, number } from "./config";
import { dropIdleConnections, latency, percentile, request, warmUp } from "./measure";
import type { Row } from "./report";
import { INVESTOR, seedInvestorsUpTo, withDatabase, type BenchDatabase } from "./seed";
import { pageSessionCookie } from "./session";
import { javascriptShipped, readManifest } from "./sizes";

const KB = 1024;
const VIEWER_ROUTE = "routes/financing.materials_.$documentId_.read";
const EVENTS_PER_SECOND = 200;
const EVENTS = number("BENCH_READING_EVENTS", 2_000);
/** Copies the events are spread over: each takes at most 20 batches a minute. */
const COPIES = 1_000;
const SMALL_ROWS = 10_000;
const LARGE_ROWS = number("BENCH_PAGE_TIME_ROWS", 1_000_000);
const PAGES_PER_COPY = 20;
const DOCUMENTS = 20;
const INVESTORS = 10_000;
const YEAR_MS = 365 * 86_400_000;
const DAY_MS = 86_400_000;

type ReadingTimeRun = { database: BenchDatabase; rows: Row[]; notes: string[]; adminCookie: () => Promise<string> };

const fmt = (value: number, digits = 1) => value.toFixed(digits);

/** `total` requests started at `perSecond`, whatever the answers' pace; each answer's time in ms. */
async function paced(total: number, perSecond: number, send: (n: number) => Promise<{ status: number; ms: number }>) {
  const started = performance.now();
  const answers: Promise<{ status: number; ms: number }>[] = [];
  for (let n = 0; n < total; n += 1) {
    const due = started + (n * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    answers.push(send(n));
  }
  return Promise.all(answers);
}

/** The bench investor, verified and NDA signed; their session cookie. */
async function signedInvestor(database: BenchDatabase) {
  await withDatabase(database, (db) =>
    db.run(
      "update users set email_verified_at = coalesce(email_verified_at, ?), is_nda_sent = 1, is_nda_signed = 1 where email = ?",
      [Date.now(), INVESTOR.email],
    ),
  );
  return pageSessionCookie(INVESTOR);
}

/** The first library PDF's id and latest version, and the bench investor's id. */
async function firstPdf(database: BenchDatabase) {
  let found = { documentId: "", versionId: "", userId: "" };
  await withDatabase(database, async (db) => {
    const [pdf] = await db.all(
      "select d.id as document_id, v.id as version_id from documents d join document_versions v on v.document_id = d.id where d.kind = 'pdf' and d.published = 1 order by d.position, v.number desc limit 1",
    );
    const [user] = await db.all("select id from users where email = ?", [INVESTOR.email]);
    found = { documentId: String(pdf.document_id), versionId: String(pdf.version_id), userId: String(user.id) };
  });
  return found;
}

/** Pages' JavaScript: the viewer page's, and pdf.js's files in no other route's. */
async function viewerJavaScript(run: ReadingTimeRun, cookie: string, documentId: string) {
  const page = await request(`/financing/materials/${documentId}/read`, { headers: { Cookie: cookie } });
  if (page.status !== 200) throw new Error(`The viewer page answered ${page.status}.`);
  const shipped = await javascriptShipped(VIEWER_ROUTE, page.body.toString("utf8"));
  const { manifest } = readManifest();
  const pdfjs = /\/pdf-[A-Z0-9]+\.js$/;
  const elsewhere = Object.entries(manifest.routes).filter(
    ([id, route]) => id !== VIEWER_ROUTE && [route.module, ...(route.imports ?? [])].some((url) => pdfjs.test(url)),
  );
  const inEntry = [manifest.entry.module, ...(manifest.entry.imports ?? [])].some((url) => pdfjs.test(url));
  // pdf.js itself is a chunk the page imports once it runs (no route lists it); its worker is apart.
  const chunk = fs
    .readdirSync(path.join(config.buildDir, "client", "_shared"))
    .find((name) => /^pdf-[A-Z0-9]+\.js$/.test(name));
  if (!chunk) throw new Error("No pdf.js chunk in the build.");
  const pdfjsBytes = (await request(`/build/_shared/${chunk}`, { headers: { "Accept-Encoding": "gzip" } })).body.length;
  run.rows.push({
    figure: "JavaScript shipped: the PDF viewer page, pdf.js included (its worker apart)",
    value: `${fmt((shipped.bytes + pdfjsBytes) / KB)} kB gzip (page ${fmt(shipped.bytes / KB)} kB in ${shipped.files} files, pdf.js ${fmt(pdfjsBytes / KB)} kB on demand)`,
    target: "no target",
    pass: true,
  });
  run.rows.push({
    figure: "pdf.js files on any other page",
    value:
      elsewhere.length === 0 && !inEntry
        ? "none"
        : [...elsewhere.map(([id]) => id), ...(inEntry ? ["entry"] : [])].join(", "),
    target: "none",
    pass: elsewhere.length === 0 && !inEntry,
  });
}

/** Reading events accepted at 200 batches a second, against the public page at the same pace. */
async function readingEvents(run: ReadingTimeRun, cookie: string, pdf: Awaited<ReturnType<typeof firstPdf>>) {
  const copies: string[] = [];
  await withDatabase(run.database, async (db) => {
    const at = Date.now() - DAY_MS;
    const rows = Array.from({ length: COPIES }, () => {
      const id = randomUUID();
      copies.push(id);
      return [id, pdf.documentId, pdf.versionId, pdf.userId, at];
    });
    await db.insertMany("document_opens", ["id", "document_id", "version_id", "user_id", "opened_at"], rows);
  });
  const streams = copies.map(() => randomUUID());
  const headers = { Cookie: cookie, "Content-Type": "application/json" };
  const path = `/financing/materials/${pdf.documentId}/reading`;
  const send = (n: number) =>
    request(path, {
      method: "POST",
      headers,
      body: JSON.stringify({
        downloadId: copies[n % COPIES],
        stream: streams[n % COPIES],
        batch: Math.floor(n / COPIES) + 1,
        pages: [{ page: 1, ms: 1_000 }],
      }),
    });
  await warmUp("/faq", {}, 20);
  dropIdleConnections();
  const events = await paced(EVENTS, EVENTS_PER_SECOND, send);
  const faq = await paced(EVENTS, EVENTS_PER_SECOND, () => request("/faq"));
  const refused = events.filter((answer) => answer.status !== 204).length;
  const [eventsP95, faqP95] = [
    percentile(
      events.map((a) => a.ms),
      0.95,
    ),
    percentile(
      faq.map((a) => a.ms),
      0.95,
    ),
  ];
  const ratio = eventsP95 / faqP95;
  run.rows.push({
    figure: `reading events accepted at ${EVENTS_PER_SECOND} batches/s vs the public page at the same pace`,
    value: `${fmt(ratio, 2)}× (p95 ${fmt(eventsP95)} ms vs ${fmt(faqP95)} ms; ${EVENTS - refused} of ${EVENTS} accepted)`,
    target: "≤ 2×",
    pass: refused === 0 && ratio <= 2,
  });
}

/** Page-time rows topped up to `total`: copies of 20 pages over 20 documents and 10,000 investors, over a year. */
async function seedPageTimes(database: BenchDatabase, total: number) {
  await seedInvestorsUpTo(database, INVESTORS);
  await withDatabase(database, async (db) => {
    const versions = await db.all(
      "select d.id as document_id, v.id as version_id, v.blob_id, v.size, v.sha256 from documents d join document_versions v on v.document_id = d.id where d.kind = 'pdf' order by d.position, v.number",
    );
    const documents = versions.map((v) => ({ id: String(v.document_id), version: String(v.version_id) }));
    const at = Date.now();
    const added: unknown[][] = [];
    const addedVersions: unknown[][] = [];
    for (let n = documents.length; n < DOCUMENTS; n += 1) {
      const [id, version] = [randomUUID(), randomUUID()];
      added.push([id, `Reading bench ${n + 1}`, "", "pdf", 100 + n, "signed", 1, at, at]);
      const v = versions[0];
      addedVersions.push([
        version,
        id,
        1,
        "bench.pdf",
        "application/pdf",
        v.size,
        v.sha256,
        v.blob_id,
        PAGES_PER_COPY,
        at,
      ]);
      documents.push({ id, version });
    }
    await db.insertMany(
      "documents",
      ["id", "title", "description", "kind", "position", "audience", "published", "created_at", "updated_at"],
      added,
    );
    await db.insertMany(
      "document_versions",
      [
        "id",
        "document_id",
        "number",
        "file_name",
        "content_type",
        "size",
        "sha256",
        "blob_id",
        "page_count",
        "created_at",
      ],
      addedVersions,
    );
    await db.run(
      "update document_versions set page_count = ? where page_count is null and content_type = 'application/pdf'",
      [PAGES_PER_COPY],
    );
    const [{ n: have }] = await db.all("select count(*) as n from page_times");
    const investors = (
      await db.all("select id from users where role = 'investor' order by created_at limit ?", [INVESTORS])
    ).map((row) => String(row.id));
    const start = Date.now() - YEAR_MS;
    const copiesWanted = Math.ceil((total - Number(have)) / PAGES_PER_COPY);
    // In slices, so memory holds one slice of rows, never a million.
    for (let done = 0; done < copiesWanted; done += 5_000) {
      const opens: unknown[][] = [];
      const streams: unknown[][] = [];
      const times: unknown[][] = [];
      for (let c = done; c < Math.min(copiesWanted, done + 5_000); c += 1) {
        const k = Number(have) / PAGES_PER_COPY + c;
        const document = documents[k % documents.length];
        const user = investors[(k * 7919) % investors.length];
        const id = randomUUID();
        const delivered = start + Math.floor((((k * 104_729) % 1_000_003) / 1_000_003) * YEAR_MS);
        opens.push([id, document.id, document.version, user, delivered]);
        streams.push([id, randomUUID(), PAGES_PER_COPY * 10_000, delivered]);
        // Readers drop off as a deck's do: fewer reach each later page.
        for (let page = 1; page <= PAGES_PER_COPY; page += 1)
          times.push([id, page, document.id, user, 5_000 + ((k + page) % 30) * 1_000, delivered, delivered]);
      }
      await db.insertMany("document_opens", ["id", "document_id", "version_id", "user_id", "opened_at"], opens);
      await db.insertMany("reading_streams", ["download_id", "stream", "total_ms", "updated_at"], streams);
      await db.insertMany(
        "page_times",
        ["download_id", "page", "document_id", "user_id", "ms", "delivered_at", "updated_at"],
        times,
      );
    }
    return undefined;
  });
  let documentId = "";
  await withDatabase(database, async (db) => {
    const [busiest] = await db.all(
      "select document_id from page_times group by document_id order by count(*) desc limit 1",
    );
    documentId = String(busiest.document_id);
  });
  return documentId;
}

async function reportTimings(cookie: string, documentId: string) {
  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() - YEAR_MS).toISOString().slice(0, 10);
  const paths = {
    report: `/financing/library/reading/${documentId}`,
    ranking: `/financing/library/engagement?from=${yearAgo}&to=${today}`,
  };
  const report = await latency(paths.report, { Cookie: cookie });
  const ranking = await latency(paths.ranking, { Cookie: cookie });
  return { report, ranking };
}

/** The phase. */
export async function readingTime(run: ReadingTimeRun) {
  const cookie = await signedInvestor(run.database);
  const pdf = await firstPdf(run.database);
  await viewerJavaScript(run, cookie, pdf.documentId);
  await readingEvents(run, cookie, pdf);

  const admin = await run.adminCookie();
  const small = await reportTimings(admin, await seedPageTimes(run.database, SMALL_ROWS));
  const seedStarted = Date.now();
  const busiest = await seedPageTimes(run.database, LARGE_ROWS);
  run.notes.push(
    `reading time: ${LARGE_ROWS.toLocaleString("en-US")} page-time rows seeded in ${fmt((Date.now() - seedStarted) / 1000)} s.`,
  );
  dropIdleConnections();
  const large = await reportTimings(admin, busiest);
  for (const [name, label] of [
    ["report", "a document's reading-time report"],
    ["ranking", "the engagement ranking over a year"],
  ] as const) {
    const growth = large[name].p95 / small[name].p95;
    run.rows.push({
      figure: `${label}: ${LARGE_ROWS.toLocaleString("en-US")} page-time rows vs ${SMALL_ROWS.toLocaleString("en-US")}`,
      value: `${fmt(growth, 2)}× (p95 ${fmt(large[name].p95)} ms vs ${fmt(small[name].p95)} ms)`,
      target: "≤ 1.5×",
      pass: growth <= 1.5,
    });
  }
}
