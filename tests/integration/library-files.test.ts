/**
 * The library's documents as an investor opens them: a PDF stamped for them, named after the document; a
 * video in byte ranges with its captions; a document outside their audience refused and audited; and each
 * opening in the reading report.
 */
import fs from "node:fs";
import { PDFDict, PDFDocument, PDFName, type PDFString } from "pdf-lib";
import { materialsMessages } from "~/content/materials";
import { toPublicUser } from "~/models/account/user.server";
import { listAuditEvents } from "~/models/audit/audit.server";
import { addVersion, createDocument, setPublished } from "~/models/library/library-changes.server";
import { listLibrary } from "~/models/library/library-documents.server";
import { readersOf } from "~/models/library/library-openings.server";
import * as documentRoute from "~/routes/financing.materials_.$documentId";
import * as captionsRoute from "~/routes/financing.materials_.$documentId_.captions[.]vtt";
import * as fileRoute from "~/routes/financing.materials_.$documentId_.file";
import * as versionRoute from "~/routes/financing.materials_.$documentId_.versions.$number";
import { storeBlob } from "~/server/blob-store.server";
import { callRoute, routeModules } from "../support/api-routes";
import { createUser, sessionHeaders } from "../support/factories";
import { useIntegration } from "../support/integration";
import { pdfPageTexts } from "../support/pdf-text";

const routes = routeModules({
  document: documentRoute,
  file: fileRoute,
  captions: captionsRoute,
  version: versionRoute,
});
const VIDEO = fs.readFileSync("private/investorvideo.mp4");
const CAPTIONS = "WEBVTT\n\n00:00.000 --> 00:02.000\nWelcome\n";

useIntegration();

async function* once(bytes: Uint8Array) {
  yield bytes;
}

async function investor() {
  const user = toPublicUser(await createUser({ signed: true, fullName: "Ada Reader", address: "1 Main St" }));
  return { user, headers: await sessionHeaders(user.id) };
}

/** A video shared with the chosen investors only, with captions. */
async function chosenVideo(chosenUserIds: string[]) {
  const admin = toPublicUser(await createUser({ role: "administrator" }));
  const video = await storeBlob(once(VIDEO), { limitFor: () => VIDEO.byteLength });
  const captions = await storeBlob(once(Buffer.from(CAPTIONS)), { limitFor: () => 1000 });
  const created = await createDocument(
    {
      title: "Roadshow",
      description: "",
      kind: "video",
      audience: "chosen",
      chosenUserIds,
      upload: {
        blobId: video.id,
        fileName: "r.mp4",
        contentType: "video/mp4",
        size: video.size,
        sha256: video.sha256,
        captionsBlobId: captions.id,
      },
    },
    { user: admin, ip: null },
  );
  if (!created.ok) throw new Error(created.message);
  await setPublished(created.id, true, { user: admin, ip: null });
  return { id: created.id, admin };
}

it("opens a PDF inline, stamped for the investor under the firm's name and the title, and records the opening", async () => {
  const { user, headers } = await investor();
  const deck = (await listLibrary()).find((document) => document.title === "Slide deck")!;
  const response = await callRoute(routes.document, {
    path: `/financing/materials/${deck.id}`,
    params: { documentId: deck.id },
    headers,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("application/pdf");
  expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  expect(response.headers.get("Content-Disposition")).toMatch(
    /^inline; filename=".+ - Slide deck\.pdf"; filename\*=UTF-8''.+%20-%20Slide%20deck\.pdf$/,
  );
  const bytes = new Uint8Array(await response.arrayBuffer());
  const texts = (await pdfPageTexts(bytes)).join(" ");
  expect(texts).toContain("Ada Reader");
  expect(texts).toContain(user.email);
  const copy = await PDFDocument.load(bytes);
  const downloadId = copy.context
    .lookup(copy.context.trailerInfo.Info, PDFDict)
    .get(PDFName.of("DownloadId")) as PDFString;
  const readers = await readersOf(deck.id);
  expect(readers).toMatchObject([{ email: user.email, opens: 1 }]);
  const audit = (await listAuditEvents({ limit: 5 })).events.find((row) => row.action === "material.opened");
  expect(audit?.details).toContain(downloadId.decodeText());
});

it("sends a video to its page, serves its bytes in ranges to the chosen investor with its captions, and refuses the others with 403, audited", async () => {
  const chosen = await investor();
  const other = await investor();
  const { id } = await chosenVideo([chosen.user.id]);
  const page = await callRoute(routes.document, {
    path: `/financing/materials/${id}`,
    params: { documentId: id },
    headers: chosen.headers,
  });
  expect(page.status).toBe(302);
  expect(page.headers.get("Location")).toBe(`/financing/materials/${id}/watch`);

  const range = await callRoute(routes.file, {
    path: `/financing/materials/${id}/file`,
    params: { documentId: id },
    headers: { ...chosen.headers, Range: "bytes=100-1099" },
  });
  expect(range.status).toBe(206);
  expect(range.headers.get("Content-Range")).toBe(`bytes 100-1099/${VIDEO.byteLength}`);
  expect(Buffer.from(await range.arrayBuffer())).toEqual(VIDEO.subarray(100, 1100));
  const captions = await callRoute(routes.captions, {
    path: `/financing/materials/${id}/captions.vtt`,
    params: { documentId: id },
    headers: chosen.headers,
  });
  expect(captions.headers.get("Content-Type")).toBe("text/vtt; charset=utf-8");
  expect(await captions.text()).toBe(CAPTIONS);
  // A viewing is one opening, however many ranges the player asks for.
  await callRoute(routes.file, {
    path: `/financing/materials/${id}/file`,
    params: { documentId: id },
    headers: { ...chosen.headers, Range: "bytes=0-99" },
  });
  expect(await readersOf(id)).toMatchObject([{ email: chosen.user.email, opens: 1 }]);

  for (const route of [routes.document, routes.file, routes.captions]) {
    const refused = await callRoute(route, {
      path: `/financing/materials/${id}`,
      params: { documentId: id },
      headers: other.headers,
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe(materialsMessages.notInAudience);
  }
  const refusals = (await listAuditEvents({ limit: 10 })).events.filter(
    (row) => row.action === "material.refused" && row.actorEmail === other.user.email,
  );
  expect(refusals).toHaveLength(3);
});

it("answers 404 for an unknown or malformed id, an unpublished document, and a PDF's raw bytes", async () => {
  const { headers } = await investor();
  const deck = (await listLibrary()).find((document) => document.title === "Offering details")!;
  const cases = [
    [routes.document, "00000000-0000-4000-8000-000000000000"],
    [routes.document, "../../etc/passwd"],
    [routes.file, deck.id],
  ] as const;
  for (const [route, documentId] of cases)
    expect((await callRoute(route, { path: "/financing/materials/x", params: { documentId }, headers })).status).toBe(
      404,
    );
  const admin = toPublicUser(await createUser({ role: "administrator" }));
  await setPublished(deck.id, false, { user: admin, ip: null });
  expect(
    (await callRoute(routes.document, { path: "/financing/materials/x", params: { documentId: deck.id }, headers }))
      .status,
  ).toBe(404);
  const adminHeaders = await sessionHeaders(admin.id);
  expect(
    (
      await callRoute(routes.document, {
        path: "/financing/materials/x",
        params: { documentId: deck.id },
        headers: adminHeaders,
      })
    ).status,
  ).toBe(200);
});

it("refuses an investor whose NDA is not signed, and sends a visitor to sign in", async () => {
  const unsigned = toPublicUser(await createUser({}));
  const deck = (await listLibrary())[1];
  const call = (headers: Record<string, string>) =>
    callRoute(routes.document, { path: `/financing/materials/${deck.id}`, params: { documentId: deck.id }, headers });
  expect((await call(await sessionHeaders(unsigned.id))).status).toBe(403);
  expect((await call({})).status).toBe(302);
});

it("lets an administrator open an earlier version, stamped for them, and answers 404 for a version that is not there", async () => {
  const admin = toPublicUser(await createUser({ role: "administrator", fullName: "Ann Admin" }));
  const headers = await sessionHeaders(admin.id);
  const firm = (await listLibrary()).find((document) => document.title === "Description of the firm")!;
  const pdf = fs.readFileSync("private/download.pdf");
  const stored = await storeBlob(once(pdf), { limitFor: () => pdf.byteLength });
  const upload = {
    blobId: stored.id,
    fileName: "v2.pdf",
    contentType: "application/pdf",
    size: stored.size,
    sha256: stored.sha256,
  };
  expect(await addVersion(firm.id, "pdf", upload, { user: admin, ip: null })).toEqual({ ok: true, number: 2 });

  const call = (number: string, callHeaders: Record<string, string> = headers) =>
    callRoute(routes.version, {
      path: "/financing/materials/x/versions/1",
      params: { documentId: firm.id, number },
      headers: callHeaders,
    });
  const first = await call("1");
  expect(first.status).toBe(200);
  expect(first.headers.get("Content-Disposition")).toContain("Description%20of%20the%20firm%20(version%201).pdf");
  expect((await pdfPageTexts(new Uint8Array(await first.arrayBuffer()))).join(" ")).toContain("Ann Admin");
  const versions = (await readersOf(firm.id)).find((reader) => reader.email === admin.email);
  expect(versions?.opens).toBe(1);
  for (const number of ["3", "0", "01", "1.5", "x"]) expect((await call(number)).status).toBe(404);
  const { headers: investorHeaders } = await investor();
  expect((await call("1", investorHeaders)).status).toBe(403);
});
