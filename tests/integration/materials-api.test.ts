/**
 * The materials API (/api/materials…), called with bearer tokens and real multipart Requests: what an
 * investor may open, uploads and new versions, the reading report; and every bad upload refused with
 * a clear 4xx that leaves no blob, chunk, document or version behind.
 */
import { readFileSync } from "node:fs";
import { libraryContent } from "~/content/library";
import { libraryApiMessages } from "~/content/library-api";
import { materialsMessages } from "~/content/materials";
import { nameAddressMessages } from "~/content/portal";
import { toPublicUser } from "~/models/account/user.server";
import { setPublished } from "~/models/library/library-changes.server";
import { listLibrary } from "~/models/library/library-documents.server";
import { recordOpening } from "~/models/library/library-openings.server";
import * as materialsRoute from "~/routes/api.materials";
import * as readersRoute from "~/routes/api.materials.$id.readers";
import * as versionsRoute from "~/routes/api.materials.$id.versions";
import * as reportRoute from "~/routes/api.materials.report";
import { getDb } from "~/server/db.server";
import { callRoute, routeModules } from "../support/api-routes";
import type { components } from "../support/api-types.generated";
import { bearerHeaders, createUser } from "../support/factories";
import { useIntegration } from "../support/integration";
import { storedLibraryRows } from "../support/library-rows";

type Shapes = components["schemas"];

const routes = routeModules({
  materials: materialsRoute,
  versions: versionsRoute,
  report: reportRoute,
  readers: readersRoute,
});

const pdf = readFileSync("private/download.pdf");
const video = readFileSync("private/investorvideo.mp4");
const captions = Buffer.from("WEBVTT\n\n00:00.000 --> 00:02.000\nHello\n");

type UserRow = Awaited<ReturnType<typeof createUser>>;
let admin: UserRow;
let adminAuth: { Authorization: string };
let signed: UserRow;
let signedAuth: { Authorization: string };
let chosen: UserRow;
let chosenAuth: { Authorization: string };
let unsignedAuth: { Authorization: string };

useIntegration();
beforeAll(async () => {
  admin = await createUser({ role: "administrator", email: "library-admin@example.com" });
  signed = await createUser({ signed: true, email: "library-signed@example.com" });
  chosen = await createUser({ signed: true, email: "library-chosen@example.com" });
  const unsigned = await createUser({ email: "library-unsigned@example.com" });
  adminAuth = await bearerHeaders(admin.id);
  signedAuth = await bearerHeaders(signed.id);
  chosenAuth = await bearerHeaders(chosen.id);
  unsignedAuth = await bearerHeaders(unsigned.id);
});

type Part = string | { bytes: Uint8Array; name: string; type?: string };

/** A multipart body as a browser or an HTTP client sends it: a list is a part a value, repeated. */
async function multipart(parts: Record<string, Part | Part[]>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts))
    for (const part of Array.isArray(value) ? value : [value])
      if (typeof part === "string") form.append(name, part);
      else
        form.append(
          name,
          new Blob([new Uint8Array(part.bytes)], { type: part.type ?? "application/octet-stream" }),
          part.name,
        );
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    headers: { "Content-Type": request.headers.get("Content-Type")! },
    body: new Uint8Array(await request.arrayBuffer()),
  };
}

async function upload(parts: Record<string, Part | Part[]>, auth: Record<string, string> = adminAuth) {
  const body = await multipart(parts);
  return callRoute(routes.materials, {
    method: "POST",
    path: "/api/materials",
    headers: { ...auth, ...body.headers },
    body: body.body,
  });
}

async function uploadVersion(id: string, parts: Record<string, Part>, auth: Record<string, string> = adminAuth) {
  const body = await multipart(parts);
  return callRoute(routes.versions, {
    method: "POST",
    path: `/api/materials/${id}/versions`,
    params: { id },
    headers: { ...auth, ...body.headers },
    body: body.body,
  });
}

const list = (auth: Record<string, string> = {}) =>
  callRoute(routes.materials, { path: "/api/materials", headers: auth });

async function documentsOf(response: Response) {
  expect(response.status).toBe(200);
  return ((await response.json()) as Shapes["MaterialList"]).documents;
}

const stored = storedLibraryRows;

const deck = { bytes: pdf, name: "deck.pdf", type: "application/pdf" };

describe("an administrator's uploads and an investor's list", () => {
  let pdfId = "";
  let videoId = "";

  it("uploads, as drafts, a PDF for every signed investor and a video with captions for one chosen investor", async () => {
    const published = await upload({ title: "  Term sheet ", description: "The terms, in short.", file: deck });
    expect(published.status).toBe(201);
    const document = (await published.json()) as Shapes["Material"];
    expect(document).toMatchObject({
      title: "Term sheet",
      description: "The terms, in short.",
      kind: "pdf",
      size: pdf.byteLength,
      version: 1,
      published: false,
      audience: "signed",
    });
    expect(document.url).toBe(`/financing/materials/${document.id}`);
    expect(new Date(document.updated).toISOString()).toBe(document.updated);
    pdfId = document.id;

    const forOne = await upload({
      title: "Site visit",
      audience: "chosen",
      chosen: [chosen.email.toUpperCase()],
      file: { bytes: video, name: "visit.mp4", type: "video/mp4" },
      captions: { bytes: captions, name: "visit.vtt", type: "text/vtt" },
    });
    expect(forOne.status).toBe(201);
    const videoDocument = (await forOne.json()) as Shapes["Material"];
    expect(videoDocument).toMatchObject({ kind: "video", audience: "chosen", size: video.byteLength });
    videoId = videoDocument.id;
    const versions = await getDb()
      .selectFrom("document_versions")
      .select(["captions_blob_id"])
      .where("document_id", "=", videoId)
      .execute();
    expect(versions).toEqual([{ captions_blob_id: expect.any(String) }]);
  });

  it("lists a draft to no investor until an administrator publishes it on its page", async () => {
    const listed = async () => (await documentsOf(await list(chosenAuth))).map((d) => d.id);
    expect(await listed()).not.toContain(pdfId);
    expect(await listed()).not.toContain(videoId);
    for (const id of [pdfId, videoId]) await setPublished(id, true, { user: admin, ip: null });
    expect(await listed()).toEqual(expect.arrayContaining([pdfId, videoId]));
  });

  it("lists for each caller what they may open: an investor their audience's, an administrator the whole library", async () => {
    const forSigned = await documentsOf(await list(signedAuth));
    expect(forSigned.map((d) => d.id)).toContain(pdfId);
    expect(forSigned.map((d) => d.id)).not.toContain(videoId);
    // An investor is not told how the library is set up.
    expect(forSigned.every((d) => d.audience === undefined && d.published === undefined)).toBe(true);

    const forChosen = await documentsOf(await list(chosenAuth));
    expect(forChosen.map((d) => d.id)).toEqual(expect.arrayContaining([pdfId, videoId]));

    const whole = await documentsOf(await list(adminAuth));
    const seeded = (await stored()).documents;
    expect(whole).toHaveLength(seeded);
    expect(whole.find((d) => d.id === videoId)).toMatchObject({ published: true, audience: "chosen" });

    const beforeNda = await list(unsignedAuth);
    expect(beforeNda.status).toBe(403);
    expect(await beforeNda.json()).toEqual({ message: libraryApiMessages.ndaNotSigned });
    expect((await list()).status).toBe(401);
  });

  it("replaces a document by a new version of its kind, which investors get from then on", async () => {
    const replaced = await uploadVersion(pdfId, { file: { bytes: pdf, name: "deck-v2.pdf" } });
    expect(replaced.status).toBe(201);
    expect(await replaced.json()).toEqual({ id: pdfId, version: 2 });
    expect((await documentsOf(await list(signedAuth))).find((d) => d.id === pdfId)).toMatchObject({ version: 2 });

    const before = await stored();
    const wrongKind = await uploadVersion(pdfId, { file: { bytes: video, name: "deck.pdf" } });
    expect(wrongKind.status).toBe(400);
    expect(await wrongKind.json()).toEqual({ message: materialsMessages.wrongKindForVersion });
    const unknown = await uploadVersion("no-such-document", { file: deck });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: materialsMessages.notFound });
    const noFile = await uploadVersion(pdfId, { note: "no file" });
    expect(noFile.status).toBe(400);
    expect((await uploadVersion(pdfId, { file: deck }, signedAuth)).status).toBe(403);
    expect((await uploadVersion(pdfId, { file: deck }, {})).status).toBe(401);
    expect(await stored()).toEqual(before);
  });

  it("reports who read what, with times as ISO strings; 404 for an unknown document", async () => {
    const document = (await listLibrary()).find((d) => d.id === pdfId)!;
    await recordOpening(toPublicUser(signed), document, null);
    await recordOpening(toPublicUser(signed), document, null);

    const report = await callRoute(routes.report, { path: "/api/materials/report", headers: adminAuth });
    expect(report.status).toBe(200);
    const rows = ((await report.json()) as Shapes["ReadingReport"]).documents;
    const row = rows.find((r) => r.id === pdfId)!;
    expect(row).toMatchObject({ title: "Term sheet", kind: "pdf", published: true, readers: 1, opens: 2 });
    expect(new Date(row.firstOpened!).toISOString()).toBe(row.firstOpened);
    expect(rows.find((r) => r.id === videoId)).toMatchObject({ readers: 0, opens: 0, firstOpened: null });

    const readers = await callRoute(routes.readers, {
      path: `/api/materials/${pdfId}/readers`,
      params: { id: pdfId },
      headers: adminAuth,
    });
    expect(readers.status).toBe(200);
    expect(await readers.json()).toMatchObject({
      id: pdfId,
      title: "Term sheet",
      readers: [{ id: signed.id, email: signed.email, opens: 2, lastOpened: expect.stringMatching(/Z$/) }],
    });
    const unknown = await callRoute(routes.readers, {
      path: "/api/materials/nothing/readers",
      params: { id: "nothing" },
      headers: adminAuth,
    });
    expect(unknown.status).toBe(404);

    for (const [route, path, params] of [
      [routes.report, "/api/materials/report", {}],
      [routes.readers, `/api/materials/${pdfId}/readers`, { id: pdfId }],
    ] as const) {
      expect((await callRoute(route, { path, params, headers: signedAuth })).status).toBe(403);
      expect((await callRoute(route, { path, params })).status).toBe(401);
    }
  });
});

describe("a bad upload is refused with a clear 4xx and stores nothing", () => {
  const tooLongTitle = "T".repeat(121);
  it.each<[string, Record<string, Part | Part[]>, number, string, string?]>([
    [
      "a file that is not a PDF, named .pdf",
      {
        title: "Deck",
        file: { bytes: Buffer.from("GIF89a" + "x".repeat(100)), name: "deck.pdf", type: "application/pdf" },
      },
      415,
      materialsMessages.wrongType,
    ],
    [
      "an empty file",
      { title: "Deck", file: { bytes: new Uint8Array(0), name: "deck.pdf" } },
      400,
      materialsMessages.emptyFile,
    ],
    [
      "a PDF that will not parse",
      { title: "Deck", file: { bytes: Buffer.from("%PDF-1.7\n" + "not a pdf ".repeat(50)), name: "deck.pdf" } },
      400,
      materialsMessages.notStampable,
    ],
    ["no file", { title: "Deck" }, 400, libraryApiMessages.fileRequired, "file"],
    ["an empty title", { title: " ", file: deck }, 400, libraryApiMessages.titleRequired, "title"],
    ["no title", { file: deck }, 400, libraryApiMessages.titleRequired, "title"],
    ["a title too long", { title: tooLongTitle, file: deck }, 400, nameAddressMessages.tooLong(120), "title"],
    [
      "a title with invisible characters",
      { title: "Deck\u200b\u202e", file: deck },
      400,
      nameAddressMessages.invisibleCharacters,
      "title",
    ],
    [
      "an audience naming an administrator",
      { title: "Deck", audience: "chosen", chosen: "library-admin@example.com", file: deck },
      400,
      libraryContent.errors.notAnInvestor("library-admin@example.com"),
      "chosen",
    ],
    [
      "an audience naming an unknown address",
      { title: "Deck", audience: "chosen", chosen: ["library-chosen@example.com", "nobody@example.com"], file: deck },
      400,
      libraryContent.errors.unknownInvestor("nobody@example.com"),
      "chosen",
    ],
    [
      "a chosen audience of nobody",
      { title: "Deck", audience: "chosen", file: deck },
      400,
      libraryApiMessages.chosenRequired,
      "chosen",
    ],
    [
      "an unknown audience",
      { title: "Deck", audience: "everyone", file: deck },
      400,
      libraryApiMessages.audienceInvalid,
      "audience",
    ],
  ])("%s", async (_case, parts, status, message, field) => {
    const before = await stored();
    const answer = await upload(parts);
    expect(answer.status).toBe(status);
    const body = (await answer.json()) as Shapes["Error"];
    expect(body.message).toBe(message);
    if (field) expect(body.issues?.[field]).toEqual([message]);
    expect(await stored()).toEqual(before);
  });

  it("refuses an investor (403), a caller without a token (401) and a body that is not multipart (415)", async () => {
    const before = await stored();
    expect((await upload({ title: "Deck", file: deck }, signedAuth)).status).toBe(403);
    expect((await upload({ title: "Deck", file: deck }, {})).status).toBe(401);
    const urlencoded = await callRoute(routes.materials, {
      method: "POST",
      path: "/api/materials",
      headers: { ...adminAuth, "Content-Type": "application/x-www-form-urlencoded" },
      body: "title=Deck",
    });
    expect(urlencoded.status).toBe(415);
    expect(await stored()).toEqual(before);
  });
});
