/**
 * Trace a copy (issue 53, item 7): a real stamped copy, uploaded, names its reader, when it was delivered, the
 * document and version and the address it went to, read from its metadata, or from its stamp's text once the
 * metadata is stripped; a pasted download id does the same, for the shipped investor PDF too, and says when a
 * copy was not delivered whole. Any other PDF is "not a copy from this portal". A non-PDF, an oversized file,
 * an unreadable or hostile PDF and a malformed id get a clear 4xx; every lookup is audited, refusals are not.
 */
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { toPublicUser, type PublicUser } from "~/models/account/user.server";
import { listLibrary } from "~/models/library/library-documents.server";
import { recordUndeliveredOpening } from "~/models/library/undelivered-copy.server";
import type { TracedCopy } from "~/models/trace/copy-trace.server";
import * as documentRoute from "~/routes/financing.materials_.$documentId";
import * as traceRoute from "~/routes/financing.trace";
import * as shippedPdfRoute from "~/routes/pdfs.download[.]pdf";
import { getDb } from "~/server/db.server";
import { callRoute, routeModules } from "../support/api-routes";
import { sessionHeaders } from "../support/factories";
import { deflateBombPdf } from "../support/hostile-pdfs";
import { useIntegration } from "../support/integration";

const routes = routeModules({ document: documentRoute, shipped: shippedPdfRoute, trace: traceRoute });

const { investor, administrator } = useIntegration();
let deckId: string;
let admin: PublicUser;
let adminHeaders: Record<string, string>;
let reader: PublicUser;
/** The reader's stamped copy of the slide deck, delivered to 192.0.2.44. */
let copy: Uint8Array;
let copyId: string;
beforeAll(async () => {
  deckId = (await listLibrary()).find((document) => document.title === "Slide deck")!.id;
  admin = toPublicUser(await administrator());
  adminHeaders = await sessionHeaders(admin.id);
  reader = toPublicUser(await investor("nda-signed", { fullName: "Ada Reader" }));
  const answer = await callRoute(routes.document, {
    path: `/financing/materials/${deckId}`,
    params: { documentId: deckId },
    headers: await sessionHeaders(reader.id),
    ip: "192.0.2.44",
  });
  expect(answer.status).toBe(200);
  copy = new Uint8Array(await answer.arrayBuffer());
  copyId = (
    await getDb().selectFrom("document_opens").select("id").where("user_id", "=", reader.id).executeTakeFirstOrThrow()
  ).id;
});

type Reply = {
  ok: boolean;
  message?: string;
  source?: string;
  readFrom?: string | null;
  downloadId?: string | null;
  copy?: TracedCopy | null;
};

async function upload(bytes: Uint8Array | string, { name = "found.pdf", headers = adminHeaders } = {}) {
  const form = new FormData();
  form.append("file", new File([bytes as Uint8Array<ArrayBuffer> | string], name, { type: "application/pdf" }));
  const body = new Response(form);
  return callRoute(routes.trace, {
    path: "/financing/trace",
    headers: { ...headers, "Content-Type": body.headers.get("content-type")! },
    body: new Uint8Array(await body.arrayBuffer()),
    ip: "198.51.100.7",
  });
}

function paste(downloadId: string, headers = adminHeaders) {
  return callRoute(routes.trace, {
    path: "/financing/trace",
    headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ downloadId }).toString(),
    ip: "198.51.100.7",
  });
}

const traceRows = () =>
  getDb()
    .selectFrom("audit_events")
    .select(["actor_id", "target_email", "details", "ip"])
    .where("action", "=", "copy.traced")
    .orderBy("id")
    .execute();

async function pdfWithout(bytes: Uint8Array, change: (pdf: PDFDocument) => void) {
  const pdf = await PDFDocument.load(bytes);
  change(pdf);
  return pdf.save();
}

describe("a stamped copy", () => {
  it("uploaded, names its reader, delivery, document, version and address, from its metadata", async () => {
    const answer = await upload(copy);
    expect(answer.status).toBe(200);
    const reply = (await answer.json()) as Reply;
    expect(reply).toMatchObject({ ok: true, source: "upload", readFrom: "metadata", downloadId: copyId });
    expect(reply.copy).toMatchObject({
      downloadId: copyId,
      reader: { id: reader.id, email: reader.email, fullName: "Ada Reader" },
      document: { id: deckId, title: "Slide deck" },
      version: 1,
      ip: "192.0.2.44",
      delivered: true,
    });
    const rows = await traceRows();
    expect(rows.at(-1)).toMatchObject({ actor_id: admin.id, target_email: reader.email, ip: "198.51.100.7" });
    expect(JSON.parse(rows.at(-1)!.details!)).toEqual({ downloadId: copyId, source: "upload", found: true });
  });

  it("with its metadata stripped, is still traced from its stamp's text", async () => {
    const stripped = await pdfWithout(copy, (pdf) => {
      pdf.setKeywords([]);
      pdf.context.lookup(pdf.context.trailerInfo.Info, PDFDict).delete(PDFName.of("DownloadId"));
    });
    const reply = (await (await upload(stripped)).json()) as Reply;
    expect(reply).toMatchObject({ readFrom: "stamp", copy: { reader: { email: reader.email }, version: 1 } });
  });

  it("pasted as a download id (in any case) is traced, and a copy not delivered whole says so", async () => {
    const reply = (await (await paste(` ${copyId.toUpperCase()} `)).json()) as Reply;
    expect(reply).toMatchObject({ source: "pasted", copy: { downloadId: copyId, ip: "192.0.2.44", delivered: true } });

    const other = toPublicUser(await investor("nda-signed"));
    const answer = await callRoute(routes.shipped, {
      path: "/pdfs/download.pdf",
      headers: await sessionHeaders(other.id),
      ip: "203.0.113.9",
    });
    const shipped = new Uint8Array(await answer.arrayBuffer());
    const shippedReply = (await (await upload(shipped)).json()) as Reply;
    expect(shippedReply.copy).toMatchObject({
      reader: { email: other.email },
      document: null,
      file: "download.pdf",
      version: null,
      ip: "203.0.113.9",
      delivered: true,
    });

    const deck = (await listLibrary()).find((document) => document.id === deckId)!;
    await recordUndeliveredOpening(reader, deck, deck.latest, copyId, "192.0.2.44");
    const undelivered = (await (await paste(copyId)).json()) as Reply;
    expect(undelivered.copy).toMatchObject({ reader: { email: reader.email }, version: 1, delivered: false });
  });
});

describe("anything else", () => {
  it("another PDF, or an id no copy has, is not a copy from this portal, and the lookup is audited", async () => {
    const doc = await PDFDocument.create();
    doc.addPage().drawText("A memorandum from elsewhere, id 11111111-2222-4333-8444-555555555555", { size: 8, y: 700 });
    const before = (await traceRows()).length;
    for (const answer of [await upload(await doc.save()), await paste("11111111-2222-4333-8444-555555555555")]) {
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as Reply).copy).toBeNull();
    }
    const rows = (await traceRows()).slice(before);
    expect(rows.map((row) => JSON.parse(row.details!).found)).toEqual([false, false]);
    expect(rows.map((row) => row.target_email)).toEqual([null, null]);
  });

  it("a non-PDF, an oversized or unreadable file, a hostile PDF and a bad id get a clear 4xx and no lookup", async () => {
    const before = (await traceRows()).length;
    const refusals: [Response, number, RegExp][] = [
      [await upload("Name,Email\nAda,ada@example.com\n", { name: "found.csv" }), 415, /not a PDF/],
      [await upload(new Uint8Array(0)), 415, /not a PDF/],
      [await upload(Buffer.from("%PDF-1.7\nthis is no PDF at all\n%%EOF")), 400, /could not be read/],
      [await upload(await deflateBombPdf()), 400, /could not be read/],
      [
        await upload(Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(50 * 1024 * 1024)])),
        413,
        /larger than 50 MB/,
      ],
      [await paste("not-an-id"), 400, /36 letters/],
      [await paste(""), 400, /Paste a download ID or choose a PDF/],
      [
        await callRoute(routes.trace, {
          path: "/financing/trace",
          headers: adminHeaders,
          json: { downloadId: copyId },
        }),
        415,
        /./,
      ],
    ];
    for (const [answer, status, message] of refusals) {
      expect(answer.status).toBe(status);
      expect(((await answer.json()) as Reply).message).toMatch(message);
    }
    expect(await traceRows()).toHaveLength(before);
  });

  it("is closed to an investor", async () => {
    const before = (await traceRows()).length;
    const answer = await paste(copyId, await sessionHeaders(reader.id));
    expect(answer.status).toBeGreaterThanOrEqual(300);
    expect(answer.status).toBeLessThan(500);
    expect(await traceRows()).toHaveLength(before);
  });
});
