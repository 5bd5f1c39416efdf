/**
 * Stamped copies shared fairly (decision 0027): a reader with their copies in flight, or past their copies
 * of the minute, is refused with 429 and Retry-After while another reader is served, even during the first
 * reader's burst; a copy whose client went away, while it waited for a thread or was being stamped, is
 * dropped and recorded nowhere; one whose client went during its bytes leaves the reading report and is
 * marked undelivered in the audit trail; a delivered copy is recorded once.
 */
import { randomUUID } from "node:crypto";
import { PDFDict, PDFDocument, PDFName, type PDFString } from "pdf-lib";
import { materialsMessages } from "~/content/materials";
import { STAMPED_COPIES_PER_MINUTE, stampedPdfResponse } from "~/http/stamped-pdf.server";
import { toPublicUser, type PublicUser } from "~/models/account/user.server";
import { listAuditEvents } from "~/models/audit/audit.server";
import { createDocument, setPublished } from "~/models/library/library-changes.server";
import { listLibrary } from "~/models/library/library-documents.server";
import { readersOf } from "~/models/library/library-openings.server";
import * as documentRoute from "~/routes/financing.materials_.$documentId";
import * as shippedPdfRoute from "~/routes/pdfs.download[.]pdf";
import { storeBlob } from "~/server/blob-store.server";
import { COPIES_IN_FLIGHT_PER_READER, stampPool, type StampPlace, type StampPool } from "~/server/stamp-pool.server";
import { callRoute, routeModules } from "../support/api-routes";
import { createUser, sessionHeaders } from "../support/factories";
import { useIntegration } from "../support/integration";

const routes = routeModules({
  document: documentRoute,
  shipped: shippedPdfRoute,
});

/** A one-page PDF of the library, and a long one whose copy takes a thread for a good while. */
let onePage: string;
let long: string;
useIntegration();
beforeAll(async () => {
  onePage = (await listLibrary()).find((document) => document.title === "Slide deck")!.id;
  long = await libraryPdf("Long memorandum", await pagesPdf(200));
  // Each thread started (a thread's first copy loads the stamping module), so that no copy's time includes it.
  const held = await everyThreadTaken();
  const bytes = await pagesPdf(1);
  await Promise.all(
    held.map((place) => place.stamp(bytes, { band: [["Warm"]], watermark: "Warm", downloadId: "warm" })),
  );
  giveBack(held);
});

async function pagesPdf(pages: number) {
  const doc = await PDFDocument.create();
  for (let page = 0; page < pages; page += 1)
    doc.addPage().drawText(`Page ${page + 1} `.repeat(40), { size: 4, y: 700 });
  return doc.save();
}

async function libraryPdf(title: string, bytes: Uint8Array) {
  const admin = toPublicUser(await createUser({ role: "administrator" }));
  const blob = await storeBlob(
    (async function* () {
      yield bytes;
    })(),
    { limitFor: () => bytes.byteLength },
  );
  const created = await createDocument(
    {
      title,
      description: "",
      kind: "pdf",
      audience: "signed",
      chosenUserIds: [],
      upload: {
        blobId: blob.id,
        fileName: "long.pdf",
        contentType: "application/pdf",
        size: blob.size,
        sha256: blob.sha256,
      },
    },
    { user: admin, ip: null },
  );
  if (!created.ok) throw new Error(created.message);
  // A new document is a draft (decision 0029): published, so that investors may open it.
  await setPublished(created.id, true, { user: admin, ip: null });
  return created.id;
}

async function reader() {
  const user = toPublicUser(await createUser({ signed: true }));
  return { user, headers: await sessionHeaders(user.id) };
}

function open(documentId: string, as: { headers: Record<string, string> }, signal?: AbortSignal) {
  return callRoute(routes.document, {
    path: `/financing/materials/${documentId}`,
    params: { documentId },
    headers: as.headers,
    signal,
  });
}

async function openings(user: PublicUser, documentId: string) {
  return (await readersOf(documentId)).find((row) => row.email === user.email)?.opens ?? 0;
}

/** The reader's audit rows of copies (their sign-in's row left out). */
async function auditRowsOf(user: PublicUser) {
  const { events } = await listAuditEvents({ limit: 1000 });
  return events
    .filter((row) => row.actorEmail === user.email && /^(material|file)\./.test(row.action))
    .map((row) => ({ action: row.action, details: row.details }));
}

async function downloadIdOf(bytes: Uint8Array) {
  const copy = await PDFDocument.load(bytes);
  return (
    copy.context.lookup(copy.context.trailerInfo.Info, PDFDict).get(PDFName.of("DownloadId")) as PDFString
  ).decodeText();
}

/** Every thread taken, each by a reader of the test's own, so that the next copy waits in line. */
async function everyThreadTaken() {
  const pool = stampPool();
  const held = Array.from({ length: pool.threads }, () => pool.reserve(`holder-${randomUUID()}`));
  await Promise.all(held.map((place) => place.turn()));
  return held;
}

function giveBack(places: StampPlace[]) {
  for (const place of places) place.release();
}

test("a reader with their copies in flight is refused with 429 and Retry-After, recorded nowhere, while another reader is served", async () => {
  const ada = await reader();
  const grace = await reader();
  const held = Array.from({ length: COPIES_IN_FLIGHT_PER_READER }, () => stampPool().reserve(ada.user.id));
  try {
    const refused = await open(onePage, ada);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.text()).toBe(materialsMessages.readerBusy(Number(refused.headers.get("Retry-After"))));
    expect(await openings(ada.user, onePage)).toBe(0);
    expect(await auditRowsOf(ada.user)).toEqual([]);

    const served = await open(onePage, grace);
    expect(served.status).toBe(200);
    await served.arrayBuffer();
  } finally {
    giveBack(held);
  }
  const again = await open(onePage, ada);
  expect(again.status).toBe(200);
  await again.arrayBuffer();
});

test("a reader past their copies of the minute is refused with 429 and the seconds left, while another reader is served", async () => {
  const ada = await reader();
  const grace = await reader();
  for (let copy = 0; copy < STAMPED_COPIES_PER_MINUTE.limit; copy += 1) {
    const served = await open(onePage, ada);
    expect(served.status).toBe(200);
    await served.arrayBuffer();
  }
  const refused = await open(onePage, ada);
  expect(refused.status).toBe(429);
  const seconds = Number(refused.headers.get("Retry-After"));
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(60);
  expect(await refused.text()).toBe(materialsMessages.readerBusy(seconds));
  expect(await openings(ada.user, onePage)).toBe(STAMPED_COPIES_PER_MINUTE.limit);
  expect((await open(onePage, grace)).status).toBe(200);
});

test("another reader's one-page copy is served while a reader's burst of long copies is still being stamped", async () => {
  const ada = await reader();
  const grace = await reader();
  const settled: string[] = [];
  const burst = Array.from({ length: COPIES_IN_FLIGHT_PER_READER }, (_, i) =>
    open(long, ada).then(async (response) => {
      await response.arrayBuffer();
      settled.push(`burst ${i} ${response.status}`);
    }),
  );
  const served = await open(onePage, grace);
  expect(served.status).toBe(200);
  await served.arrayBuffer();
  settled.push("one page");
  await Promise.all(burst);
  expect(settled[0]).toBe("one page");
  expect(settled.filter((entry) => entry.endsWith(" 200"))).toHaveLength(COPIES_IN_FLIGHT_PER_READER);
  expect(await openings(ada.user, long)).toBe(COPIES_IN_FLIGHT_PER_READER);
}, 60_000);

test("a copy whose client went away while it waited for a thread, or as its turn came, is dropped and recorded nowhere", async () => {
  const ada = await reader();
  const held = await everyThreadTaken();
  try {
    const waiting = new AbortController();
    const waited = open(long, ada, waiting.signal);
    // The copy is in line once a place is taken: the second reservation of its reader's is then the one left.
    await vi.waitFor(() => expect(placesLeft(ada.user.id)).toBe(COPIES_IN_FLIGHT_PER_READER - 1));
    waiting.abort();
    const dropped = await waited;
    expect(dropped.status).toBe(499);
    expect(placesLeft(ada.user.id)).toBe(COPIES_IN_FLIGHT_PER_READER);

    const stamping = new AbortController();
    const stamped = open(long, ada, stamping.signal);
    await vi.waitFor(() => expect(placesLeft(ada.user.id)).toBe(COPIES_IN_FLIGHT_PER_READER - 1));
    giveBack(held); // The copy's turn comes now, and its client goes before the copy is read.
    stamping.abort();
    expect((await stamped).status).toBe(499);
  } finally {
    giveBack(held);
  }
  expect(await openings(ada.user, long)).toBe(0);
  expect(await auditRowsOf(ada.user)).toEqual([]);
}, 60_000);

/** How many more places the reader may take: each is taken and given back again to count. */
function placesLeft(readerId: string) {
  const taken = [];
  try {
    for (;;) taken.push(stampPool().reserve(readerId));
  } catch {
    return taken.length;
  } finally {
    taken.forEach((place) => place.release());
  }
}

test("a delivered copy is one opening and one audit row, with the copy's download id", async () => {
  const ada = await reader();
  const response = await open(onePage, ada, new AbortController().signal);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const downloadId = await downloadIdOf(bytes);
  expect(await openings(ada.user, onePage)).toBe(1);
  const rows = await auditRowsOf(ada.user);
  expect(rows).toEqual([{ action: "material.opened", details: expect.stringContaining(downloadId) }]);
});

test("a copy whose client went before its last byte leaves the reading report, and the trail marks it undelivered", async () => {
  const ada = await reader();
  const client = new AbortController();
  const response = await open(onePage, ada, client.signal);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const downloadId = await downloadIdOf(bytes);
  client.abort(); // What Remix does when the response closes before it has finished.
  await vi.waitFor(async () => expect(await auditRowsOf(ada.user)).toHaveLength(2));
  expect(await openings(ada.user, onePage)).toBe(0);
  const rows = await auditRowsOf(ada.user);
  expect(rows.map((row) => row.action).sort()).toEqual(["material.opened", "material.undelivered"]);
  for (const row of rows) expect(row.details).toContain(downloadId);
});

test("the shipped PDF's copy whose client went before its last byte is marked undelivered beside its download row", async () => {
  const ada = await reader();
  const client = new AbortController();
  const response = await callRoute(routes.shipped, {
    path: "/pdfs/download.pdf",
    headers: ada.headers,
    signal: client.signal,
  });
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const downloadId = await downloadIdOf(bytes);
  client.abort();
  await vi.waitFor(async () => expect(await auditRowsOf(ada.user)).toHaveLength(2));
  const rows = await auditRowsOf(ada.user);
  expect(rows.map((row) => row.action).sort()).toEqual(["file.download", "file.undelivered"]);
  for (const row of rows) expect(row.details).toContain(downloadId);
});

test("a copy whose client goes while it is stamped is neither recorded nor sent", async () => {
  const client = new AbortController();
  const record = vi.fn(async () => {});
  const undelivered = vi.fn(async () => {});
  const stampingWhileTheClientGoes: StampPool = {
    threads: 1,
    reserve: () => ({
      turn: async () => {},
      stamp: async (bytes) => {
        client.abort();
        return bytes;
      },
      release: () => {},
    }),
    close: async () => {},
  };
  const answer = await stampedPdfResponse({
    request: new Request("http://localhost/pdfs/download.pdf", { signal: client.signal }),
    user: (await reader()).user,
    contentDisposition: "inline",
    source: async () => pagesPdf(1),
    record,
    undelivered,
    pool: stampingWhileTheClientGoes,
  });
  expect(answer.status).toBe(499);
  expect(answer.body).toBeNull();
  expect(record).not.toHaveBeenCalled();
  expect(undelivered).not.toHaveBeenCalled();
});
