/**
 * The in-page viewer and time per page (issue 53):
 * - the viewer page's JavaScript (pdf.js's worker apart), and pdf.js's files on no other page;
 * - reading events accepted at 200 batches a second, beside the framework floor sent at the same pace: the
 *   batch's server p95 and its answers a second against the floor's (readingEvents says how);
 * - a document's reading-time report and the engagement ranking at BENCH_PAGE_TIME_ROWS page-time rows
 *   (1,000,000 by default) against 10,000: growth in framework floors ≤ 1.5× (the ranking's per reader it
 *   ranks), and the ranking at the large size against its floors. Rows are seeded straight into the
 *   database, 20 pages a copy, over 20 documents (the first read most) and 10,000 investors, delivered over
 *   a year.
 * Self-contained: it seeds what it needs and reads only the build's manifest and the server.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { config, host, number } from "./config";
import { dropIdleConnections, percentile, request, serverTimeOf, warmUp, type ServerTime } from "./measure";
import type { Row } from "./report";
import { INVESTOR, seedInvestorsUpTo, withDatabase, type BenchDatabase } from "./seed";
import { pageSessionCookie } from "./session";
import { javascriptShipped, readManifest } from "./sizes";
import { cpuText, DATA_FACTOR, FRAMEWORK_PAGE, judgedAgainstFloors, judgedLatency, type Judged } from "./verdicts";

const KB = 1024;
const VIEWER_ROUTE = "routes/financing.materials_.$documentId_.read";
const EVENTS_PER_SECOND = 200;
const EVENTS = number("BENCH_READING_EVENTS", 2_000);
/** A batch's own work beyond the framework and its statements (its JSON read and checked), in framework floors. */
const BATCH_ALLOWANCE = 1;
/** How much a report's cost may grow from SMALL_ROWS to LARGE_ROWS, in framework floors. */
const GROWTH_LIMIT = 1.5;
/** The ranking's work beyond its statements (a table of a hundred investors), in framework floors: the report pages'. */
const RANKING_ALLOWANCE_IN_FLOORS = 3;
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

/**
 * Beacons come from many browsers at once, each on its own connection: the paced requests get as many as they
 * need. (measure.ts's one kept-alive connection would queue them at the client, and the server would answer
 * one at a time whatever it could do: 2,000 batches at 200/s took a p95 of 30-56 s that way.)
 */
const beaconAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

type Paced = { status: number; ms: number } & ServerTime;

function beacon(path: string, options: { method?: string; headers: Record<string, string>; body?: string }) {
  return new Promise<Paced>((resolve, reject) => {
    const started = performance.now();
    const req = http.request({ host, port: config.port, path, agent: beaconAgent, ...options }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, ...serverTimeOf(res.headers) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Requests `from` to `to` started at `perSecond`, whatever the answers' pace; the answers and their wall time. */
async function paced(from: number, to: number, perSecond: number, send: (n: number) => Promise<Paced>) {
  const started = performance.now();
  const answers: Promise<Paced>[] = [];
  for (let n = from; n < to; n += 1) {
    const wait = started + ((n - from) * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    answers.push(send(n));
  }
  const done = await Promise.all(answers);
  return { answers: done, seconds: (performance.now() - started) / 1000 };
}

/**
 * The batches and the framework floor sent at the same pace in alternating one-second slices (batches, floor,
 * batches, …), so that whatever else the shared machine does weighs on both alike.
 */
async function pacedBeside(
  total: number,
  perSecond: number,
  batch: (n: number) => Promise<Paced>,
  floor: () => Promise<Paced>,
) {
  const own = { answers: [] as Paced[], seconds: 0 };
  const beside = { answers: [] as Paced[], seconds: 0 };
  for (let from = 0; from < total; from += perSecond) {
    const to = Math.min(total, from + perSecond);
    for (const [side, send] of [
      [own, batch],
      [beside, floor],
    ] as const) {
      const slice = await paced(from, to, perSecond, send);
      side.answers.push(...slice.answers);
      side.seconds += slice.seconds;
    }
  }
  return { own, beside };
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

/**
 * Reading events accepted at 200 batches a second, judged against the framework floor sent at the same pace
 * beside them: the batch's server p95 ≤ F + 1.5 D + BATCH_ALLOWANCE × F (F the floor's server p95 at that pace,
 * D the batch's statements' p95: the rate, the stream, the number, the pages and their totals' triggers, the
 * commit), and the batches answered as fast as the floor was (≥ 90 % of its answers a second).
 */
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
  const batch = (n: number) =>
    beacon(path, {
      method: "POST",
      headers,
      body: JSON.stringify({
        downloadId: copies[n % COPIES],
        stream: streams[n % COPIES],
        batch: Math.floor(n / COPIES) + 1,
        pages: [{ page: 1, ms: 1_000 }],
      }),
    });
  const floor = () => beacon(FRAMEWORK_PAGE, { headers: { Cookie: cookie } });
  await warmUp(FRAMEWORK_PAGE, { Cookie: cookie }, 20);
  dropIdleConnections();
  const { own, beside } = await pacedBeside(EVENTS, EVENTS_PER_SECOND, batch, floor);
  const refused = own.answers.filter((answer) => answer.status !== 204).length;
  if (beside.answers.some((answer) => answer.status !== 200)) throw new Error(`${FRAMEWORK_PAGE} did not answer 200.`);
  const p95 = (answers: Paced[], pick: (answer: Paced) => number) => percentile(answers.map(pick), 0.95);
  const [server, database, framework] = [
    p95(own.answers, (a) => a.serverMs),
    p95(own.answers, (a) => a.databaseMs),
    p95(beside.answers, (a) => a.serverMs),
  ];
  const limit = framework + DATA_FACTOR * database + BATCH_ALLOWANCE * framework;
  const [rate, floorRate] = [own.answers.length / own.seconds, beside.answers.length / beside.seconds];
  run.rows.push({
    figure: `reading events accepted at ${EVENTS_PER_SECOND} batches/s, the framework floor beside them at the same pace`,
    value: `server p95 ${fmt(server)} ms, ${fmt(rate)} answers/s (${EVENTS - refused} of ${EVENTS} accepted)`,
    target: `≤ ${fmt(limit)} ms (F + ${DATA_FACTOR} D + ${BATCH_ALLOWANCE} F), ≥ ${fmt(0.9 * floorRate)}/s (90 % of F's), all accepted`,
    floor: `F ${fmt(framework)} ms, ${fmt(floorRate)}/s; D ${fmt(database)} ms`,
    absolute: `client p95 ${fmt(p95(own.answers, (a) => a.ms))} ms (F ${fmt(p95(beside.answers, (a) => a.ms))} ms)`,
    pass: refused === 0 && server <= limit && rate >= 0.9 * floorRate,
  });
}

/**
 * The document of the k-th copy: the first documents are read most, as a data room's first decks are (document d
 * gets a share ∝ 1/(d+1), as the reading report's bench has it), so that the busiest document has more than a
 * page of readers (the report lists 100) already at the small size, and both sizes' reports draw the same table.
 */
function documentOfCopy(k: number, documents: number) {
  const weights = Array.from({ length: documents }, (_, d) => 1 / (d + 1));
  const total = weights.reduce((sum, w) => sum + w, 0);
  let pick = (((k * 2_654_435_761) % 1_000_003) / 1_000_003) * total;
  for (let d = 0; d < documents; d += 1) {
    pick -= weights[d];
    if (pick < 0) return d;
  }
  return documents - 1;
}

/** Page-time rows topped up to `total`: copies of 20 pages over 20 documents and 10,000 investors, over a year. */
export async function seedPageTimes(database: BenchDatabase, total: number) {
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
        const document = documents[documentOfCopy(k, documents.length)];
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

async function reportTimings(database: BenchDatabase, cookie: string, documentId: string) {
  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() - YEAR_MS).toISOString().slice(0, 10);
  const headers = { Cookie: cookie };
  const paths = {
    report: `/financing/library/reading/${documentId}`,
    ranking: `/financing/library/engagement?from=${yearAgo}&to=${today}`,
  };
  for (const path of Object.values(paths)) await warmUp(path, headers, 10);
  const report = await judgedLatency(paths.report, headers);
  const ranking = await judgedLatency(paths.ranking, headers);
  let readers = 0;
  await withDatabase(database, async (db) => {
    const [{ n }] = await db.all("select count(distinct user_id) as n from reader_day_reading");
    readers = Number(n);
  });
  return { report, ranking, readers };
}

/**
 * How a page's cost grows from the small size to the large one: its server median in framework floors (the
 * floor asked after each of its requests), large over small, so that the machine's load, which moves between
 * the two sizes' minutes, weighs on the figure and on its floor alike. The raw medians and the CPU are shown.
 */
function growthInFloors(
  figure: string,
  small: { timing: Judged; rows?: number },
  large: { timing: Judged; rows?: number },
): Row {
  const floorOf = (timing: Judged) => {
    if (!timing.beside) throw new Error(`${figure}: measured without the framework floor beside it.`);
    return timing.beside.server.p50;
  };
  const perRow = small.rows !== undefined && large.rows !== undefined;
  const inFloors = (side: typeof small) => side.timing.server.p50 / floorOf(side.timing) / (perRow ? side.rows! : 1);
  const ratio = inFloors(large) / inFloors(small);
  const [unit, digits] = perRow ? [" per reader", 5] : ["", 2];
  return {
    figure,
    value: `${fmt(ratio, 2)}× (server median ${fmt(inFloors(small), digits)} → ${fmt(inFloors(large), digits)} F${unit})`,
    target: `≤ ${GROWTH_LIMIT}×${unit}`,
    floor:
      `F median ${fmt(floorOf(small.timing))} → ${fmt(floorOf(large.timing))} ms` +
      (perRow ? `; readers ${small.rows!.toLocaleString("en-US")} → ${large.rows!.toLocaleString("en-US")}` : ""),
    absolute:
      `server median ${fmt(small.timing.server.p50)} → ${fmt(large.timing.server.p50)} ms, ` +
      `p95 ${fmt(small.timing.server.p95)} → ${fmt(large.timing.server.p95)} ms`,
    cpu: `${cpuText(small.timing)} → ${cpuText(large.timing)}`,
    load: large.timing.loadAtStart,
    pass: ratio <= GROWTH_LIMIT,
  };
}

/** The phase. */
export async function readingTime(run: ReadingTimeRun) {
  const cookie = await signedInvestor(run.database);
  const pdf = await firstPdf(run.database);
  await viewerJavaScript(run, cookie, pdf.documentId);
  await readingEvents(run, cookie, pdf);

  const admin = await run.adminCookie();
  const small = await reportTimings(run.database, admin, await seedPageTimes(run.database, SMALL_ROWS));
  const seedStarted = Date.now();
  const busiest = await seedPageTimes(run.database, LARGE_ROWS);
  run.notes.push(
    `reading time: ${LARGE_ROWS.toLocaleString("en-US")} page-time rows seeded in ${fmt((Date.now() - seedStarted) / 1000)} s.`,
  );
  dropIdleConnections();
  const large = await reportTimings(run.database, admin, busiest);
  const sizes = `${LARGE_ROWS.toLocaleString("en-US")} page-time rows vs ${SMALL_ROWS.toLocaleString("en-US")}`;
  run.rows.push(
    growthInFloors(`a document's reading-time report: ${sizes}`, { timing: small.report }, { timing: large.report }),
    // A ranking of a period must score every reader in it: its work grows with them (500 at the small size,
    // every investor at the large), so its growth is judged per reader ranked, as a whole list's is per row;
    // what it costs beyond its statements is judged against the floors at the large size.
    growthInFloors(
      `the engagement ranking over a year: ${sizes}`,
      { timing: small.ranking, rows: small.readers },
      { timing: large.ranking, rows: large.readers },
    ),
    await judgedAgainstFloors(
      `the engagement ranking over a year at ${LARGE_ROWS.toLocaleString("en-US")} page-time rows (${large.readers.toLocaleString("en-US")} readers)`,
      large.ranking,
      RANKING_ALLOWANCE_IN_FLOORS,
    ),
  );
}
