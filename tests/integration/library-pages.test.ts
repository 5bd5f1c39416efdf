/**
 * The administrators' library pages, their loaders and actions called with real requests (multipart
 * uploads, urlencoded forms) and session cookies: uploads (drafts), the preview, new versions, edits, moves,
 * publication and audience; what widens who reads refused without "Confirm it's you"; and every bad input
 * refused with a clear 4xx, leaving no document, version, blob or chunk.
 */
import { readFileSync } from "node:fs";
import { controlCharacterErrors } from "~/content/forms";
import { libraryContent } from "~/content/library";
import { materialsMessages } from "~/content/materials";
import { sudoContent } from "~/content/sudo";
import { toPublicUser } from "~/models/account/user.server";
import { listAuditEvents } from "~/models/audit/audit.server";
import { listOpenableDocuments, openableVersion } from "~/models/library/library-access.server";
import { getLibraryDocument, listLibrary } from "~/models/library/library-documents.server";
import * as documentPage from "~/routes/financing.library.$id/route";
import * as versionsPage from "~/routes/financing.library.$id_.versions";
import * as listPage from "~/routes/financing.library._index";
import * as newPage from "~/routes/financing.library.new";
import * as materialRoute from "~/routes/financing.materials_.$documentId";
import { callRoute, type RouteModule, routeModules } from "../support/api-routes";
import { createSession, createUser, sessionCookieFor } from "../support/factories";
import { useIntegration } from "../support/integration";
import { storedLibraryRows } from "../support/library-rows";
import { pdfPageTexts } from "../support/pdf-text";

const { smtp } = useIntegration({ mail: true });

const pages = routeModules({
  list: listPage,
  upload: newPage,
  document: documentPage,
  versions: versionsPage,
  material: materialRoute,
});

const pdf = readFileSync("private/download.pdf");
const video = readFileSync("private/investorvideo.mp4");
const captions = Buffer.from("WEBVTT\n\n00:00.000 --> 00:02.000\nWelcome\n");

type Part = string | { bytes: Uint8Array; name: string; type?: string };

/** A multipart body as a browser sends it, with its Content-Type (and boundary). */
async function multipart(parts: Record<string, Part>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts))
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type ?? "" }), value.name);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), type: request.headers.get("Content-Type")! };
}

async function upload(cookie: string, parts: Record<string, Part>) {
  const { body, type } = await multipart(parts);
  return callRoute(pages.upload, {
    path: "/financing/library/new",
    headers: { Cookie: cookie, "Content-Type": type },
    body,
  });
}

async function newVersion(cookie: string, id: string, parts: Record<string, Part>) {
  const { body, type } = await multipart(parts);
  return callRoute(pages.versions, {
    path: `/financing/library/${id}/versions`,
    params: { id },
    headers: { Cookie: cookie, "Content-Type": type },
    body,
  });
}

function post(
  route: RouteModule,
  cookie: string,
  path: string,
  id: string | undefined,
  fields: Record<string, string>,
) {
  return callRoute(route, {
    path,
    params: { id },
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

const onPage = (cookie: string, id: string, fields: Record<string, string>) =>
  post(pages.document, cookie, `/financing/library/${id}`, id, fields);

const stored = storedLibraryRows;

/** The id in the Location of a redirect to a document's page. */
function documentIdIn(response: Response) {
  expect(response.status).toBe(302);
  const match = /^\/financing\/library\/([0-9a-f-]{36})$/.exec(response.headers.get("Location") ?? "");
  expect(match).not.toBeNull();
  return match![1];
}

/** Every message of a refused form. */
async function messagesOf(response: Response): Promise<string[]> {
  const body = (await response.json()) as { reply: { error: Record<string, string[]> } };
  return Object.values(body.reply.error).flat();
}

let admin: Awaited<ReturnType<typeof createUser>>;
let adminCookie: string;
let investor: Awaited<ReturnType<typeof createUser>>;
let other: Awaited<ReturnType<typeof createUser>>;
beforeAll(async () => {
  admin = await createUser({ named: true, role: "administrator" });
  adminCookie = await sessionCookieFor(admin.id);
  investor = await createUser({ named: true, signed: true });
  other = await createUser({ named: true, signed: true });
});

describe("an administrator's library", () => {
  let pdfId: string;
  let videoId: string;

  it("uploads a PDF and a video with captions, each a draft at the end of the list, then publishes them", async () => {
    const deck = await upload(adminCookie, {
      title: "  Pitch deck  ",
      description: "The deck\nfor the round",
      audience: "signed",
      chosen: "",
      file: { bytes: pdf, name: "deck.pdf", type: "application/pdf" },
      captions: { bytes: new Uint8Array(0), name: "" },
    });
    pdfId = documentIdIn(deck);
    const film = await upload(adminCookie, {
      title: "Founders' video",
      description: "",
      audience: "chosen",
      chosen: `${investor.email.toUpperCase()}\n\n${investor.email}\n`,
      file: { bytes: video, name: "founders.mp4", type: "video/mp4" },
      captions: { bytes: captions, name: "founders.vtt", type: "text/vtt" },
    });
    videoId = documentIdIn(film);

    const library = await listLibrary();
    expect(library.slice(-2).map((document) => [document.title, document.kind, document.audience])).toEqual([
      ["Pitch deck", "pdf", "signed"],
      ["Founders' video", "video", "chosen"],
    ]);
    const deckDocument = await getLibraryDocument(pdfId);
    expect(deckDocument).toMatchObject({ description: "The deck for the round", published: false });
    expect(deckDocument?.latest).toMatchObject({ number: 1, fileName: "deck.pdf", size: pdf.byteLength });
    const filmDocument = await getLibraryDocument(videoId);
    expect(filmDocument?.latest.hasCaptions).toBe(true);
    expect(filmDocument?.chosen.map((chosen) => chosen.email)).toEqual([investor.email]);

    const page = await callRoute(pages.list, { path: "/financing/library", headers: { Cookie: adminCookie } });
    expect(page.status).toBe(200);
    const { documents } = (await page.json()) as { documents: { id: string; chosenCount: number }[] };
    expect(documents.find((document) => document.id === videoId)?.chosenCount).toBe(1);
    const shown = await callRoute(pages.document, {
      path: `/financing/library/${videoId}`,
      params: { id: videoId },
      headers: { Cookie: adminCookie },
    });
    expect(shown.status).toBe(200);
    const { events } = await listAuditEvents({ limit: 20 });
    expect(events.map((event) => event.action)).toContain("material.uploaded");

    for (const id of [pdfId, videoId]) expect((await onPage(adminCookie, id, { intent: "publish" })).status).toBe(302);
    expect(await getLibraryDocument(pdfId)).toMatchObject({ published: true });
    expect(await getLibraryDocument(videoId)).toMatchObject({ published: true });
  });

  it("replaces the PDF with version 2, which investors get from then on", async () => {
    const replaced = await newVersion(adminCookie, pdfId, { file: { bytes: pdf, name: "deck-v2.pdf" } });
    expect(replaced.status).toBe(302);
    expect(replaced.headers.get("Location")).toBe(`/financing/library/${pdfId}`);
    expect(replaced.headers.get("Set-Cookie")).toContain("__toast");
    const opened = await openableVersion(toPublicUser(investor), pdfId, "127.0.0.1");
    expect(opened).toMatchObject({ ok: true, document: { latest: { number: 2, fileName: "deck-v2.pdf" } } });
    expect((await getLibraryDocument(pdfId))?.versions.map((version) => version.number)).toEqual([2, 1]);
  });

  it("edits, moves, unpublishes and publishes again, and sets the audience", async () => {
    expect((await onPage(adminCookie, pdfId, { intent: "details", title: "Slide deck", description: "" })).status).toBe(
      302,
    );
    expect(await getLibraryDocument(pdfId)).toMatchObject({ title: "Slide deck", description: "" });

    const order = async () => (await listLibrary()).map((document) => document.id);
    const before = await order();
    const moved = await post(pages.list, adminCookie, "/financing/library", undefined, {
      intent: "up",
      documentId: videoId,
    });
    expect(moved.status).toBe(302);
    const after = await order();
    expect(after.indexOf(videoId)).toBe(before.indexOf(videoId) - 1);
    await post(pages.list, adminCookie, "/financing/library", undefined, { intent: "down", documentId: videoId });
    expect(await order()).toEqual(before);

    expect((await onPage(adminCookie, pdfId, { intent: "unpublish" })).status).toBe(302);
    expect(await getLibraryDocument(pdfId)).toMatchObject({ published: false });
    expect(await openableVersion(toPublicUser(investor), pdfId, null)).toMatchObject({ ok: false, status: 404 });
    expect((await onPage(adminCookie, pdfId, { intent: "publish" })).status).toBe(302);
    expect(await getLibraryDocument(pdfId)).toMatchObject({ published: true });

    const chosen = await onPage(adminCookie, pdfId, { intent: "audience", audience: "chosen", chosen: other.email });
    expect(chosen.status).toBe(302);
    expect(await getLibraryDocument(pdfId)).toMatchObject({ audience: "chosen", chosen: [{ email: other.email }] });
    expect(await openableVersion(toPublicUser(investor), pdfId, null)).toMatchObject({ ok: false, status: 403 });
    expect(
      (await onPage(adminCookie, pdfId, { intent: "audience", audience: "signed", chosen: other.email })).status,
    ).toBe(302);
    expect(await getLibraryDocument(pdfId)).toMatchObject({ audience: "signed", chosen: [] });
    expect(await openableVersion(toPublicUser(investor), pdfId, null)).toMatchObject({ ok: true });
  });

  it("refuses an audience naming an administrator or an unknown address, or none, and changes nothing", async () => {
    const before = await getLibraryDocument(videoId);
    for (const [chosen, message] of [
      [admin.email, libraryContent.errors.notAnInvestor(admin.email)],
      ["nobody@example.com", libraryContent.errors.unknownInvestor("nobody@example.com")],
      ["not an address", libraryContent.errors.notAnEmail("not an address")],
      ["", libraryContent.errors.noneChosen],
    ]) {
      const refused = await onPage(adminCookie, videoId, { intent: "audience", audience: "chosen", chosen });
      expect(refused.status).toBe(400);
      expect(await messagesOf(refused)).toContain(message);
    }
    const badTitle = await onPage(adminCookie, videoId, { intent: "details", title: "", description: "" });
    expect(badTitle.status).toBe(400);
    expect(await messagesOf(badTitle)).toContain(libraryContent.errors.titleRequired);
    expect(await getLibraryDocument(videoId)).toEqual(before);
  });

  it("answers 404 for an unknown document and 400 for a malformed id", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    const get = (id: string) =>
      callRoute(pages.document, { path: `/financing/library/${id}`, params: { id }, headers: { Cookie: adminCookie } });
    expect((await get(unknown)).status).toBe(404);
    expect((await get("not-an-id")).status).toBe(400);
    expect((await onPage(adminCookie, unknown, { intent: "publish" })).status).toBe(404);
    expect(
      (await post(pages.list, adminCookie, "/financing/library", undefined, { intent: "up", documentId: unknown }))
        .status,
    ).toBe(404);
    expect(
      (
        await post(pages.list, adminCookie, "/financing/library", undefined, {
          intent: "sideways",
          documentId: unknown,
        })
      ).status,
    ).toBe(400);
  });

  describe("bad uploads: a clear 4xx, and nothing stored", () => {
    const good = { title: "A title", description: "", audience: "signed", chosen: "" };
    const pdfFile = { bytes: pdf, name: "deck.pdf", type: "application/pdf" };
    it.each<[string, Record<string, Part>, number, string]>([
      ["an empty title", { ...good, title: "", file: pdfFile }, 400, libraryContent.errors.titleRequired],
      ["a title of 121 characters", { ...good, title: "x".repeat(121), file: pdfFile }, 400, "At most 120 characters"],
      [
        "a title with a zero-width space",
        { ...good, title: "Deck\u200b", file: pdfFile },
        400,
        "Remove the invisible characters (zero-width spaces or text-direction marks): they can make one name read as another",
      ],
      [
        "a title with a control character",
        { ...good, title: "Deck\u0007", file: pdfFile },
        400,
        controlCharacterErrors.field,
      ],
      [
        "an audience naming an unknown address",
        { ...good, audience: "chosen", chosen: "nobody@example.com", file: pdfFile },
        400,
        libraryContent.errors.unknownInvestor("nobody@example.com"),
      ],
      ["no file", { ...good, file: { bytes: new Uint8Array(0), name: "" } }, 400, libraryContent.errors.fileRequired],
      [
        "a file that is not a PDF, named .pdf",
        {
          ...good,
          file: { bytes: Buffer.from("GIF89a" + "x".repeat(500)), name: "deck.pdf", type: "application/pdf" },
        },
        415,
        materialsMessages.wrongType,
      ],
      [
        "an empty file",
        { ...good, file: { bytes: new Uint8Array(0), name: "deck.pdf" } },
        400,
        materialsMessages.emptyFile,
      ],
      [
        "a PDF that will not parse",
        { ...good, file: { bytes: Buffer.from("%PDF-1.7\n" + "not a pdf ".repeat(50)), name: "deck.pdf" } },
        400,
        materialsMessages.notStampable,
      ],
    ])("refuses %s", async (_name, parts, status, message) => {
      const before = await stored();
      const refused = await upload(adminCookie, parts);
      expect(refused.status).toBe(status);
      expect(await messagesOf(refused)).toContain(message);
      expect(await stored()).toEqual(before);
    });

    it("refuses an upload cut off mid-way (a cancelled one), leaving no chunk behind", async () => {
      const before = await stored();
      const { body, type } = await multipart({ ...good, file: { bytes: video, name: "founders.mp4" } });
      const cut = await callRoute(pages.upload, {
        path: "/financing/library/new",
        headers: { Cookie: adminCookie, "Content-Type": type },
        body: body.subarray(0, body.byteLength - 5000),
      });
      expect(cut.status).toBe(400);
      expect(await stored()).toEqual(before);
    });

    it("refuses an audience naming an administrator, keeping the values typed but not the file", async () => {
      const before = await stored();
      const refused = await upload(adminCookie, { ...good, audience: "chosen", chosen: admin.email, file: pdfFile });
      expect(refused.status).toBe(400);
      const { reply } = (await refused.json()) as {
        reply: { error: Record<string, string[]>; initialValue: Record<string, string> };
      };
      expect(reply.error.chosen).toEqual([libraryContent.errors.notAnInvestor(admin.email)]);
      expect(reply.error.file).toEqual([libraryContent.errors.chooseAgain]);
      expect(reply.initialValue).toMatchObject({ title: "A title", chosen: admin.email });
      expect(reply.initialValue.file).toBeUndefined();
      expect(await stored()).toEqual(before);
    });

    it("refuses a version for an unknown document, of the wrong kind, or without a file", async () => {
      const before = await stored();
      const unknown = await newVersion(adminCookie, "00000000-0000-4000-8000-000000000000", { file: pdfFile });
      expect(unknown.status).toBe(404);
      const malformed = await newVersion(adminCookie, "nope", { file: pdfFile });
      expect(malformed.status).toBe(400);
      const wrongKind = await newVersion(adminCookie, pdfId, { file: { bytes: video, name: "deck.mp4" } });
      expect(wrongKind.status).toBe(400);
      expect(await messagesOf(wrongKind)).toContain(materialsMessages.wrongKindForVersion);
      const captionsOnPdf = await newVersion(adminCookie, pdfId, {
        file: pdfFile,
        captions: { bytes: captions, name: "deck.vtt" },
      });
      expect(captionsOnPdf.status).toBe(400);
      const none = await newVersion(adminCookie, pdfId, { file: { bytes: new Uint8Array(0), name: "" } });
      expect(none.status).toBe(400);
      expect(await messagesOf(none)).toContain(libraryContent.errors.fileRequired);
      expect(await stored()).toEqual(before);
    });

    it("answers an investor 403 on every page and action, storing nothing", async () => {
      const cookie = await sessionCookieFor(investor.id);
      const before = await stored();
      const answers = [
        await callRoute(pages.list, { path: "/financing/library", headers: { Cookie: cookie } }),
        await callRoute(pages.upload, { path: "/financing/library/new", headers: { Cookie: cookie } }),
        await callRoute(pages.document, {
          path: `/financing/library/${pdfId}`,
          params: { id: pdfId },
          headers: { Cookie: cookie },
        }),
        await upload(cookie, { ...good, file: pdfFile }),
        await newVersion(cookie, pdfId, { file: pdfFile }),
        await onPage(cookie, pdfId, { intent: "unpublish" }),
        await post(pages.list, cookie, "/financing/library", undefined, { intent: "up", documentId: pdfId }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
      expect(await stored()).toEqual(before);
      expect(await getLibraryDocument(pdfId)).toMatchObject({ published: true });
    });
  });
});

describe("a new document is a draft, and what widens who reads asks for Confirm it's you", () => {
  let lapsed: string;
  let draftId: string;
  beforeAll(async () => {
    // The administrator's session with its confirmation gone by (or never given: a passkey sign-in).
    lapsed = (await createSession(admin.id, { reauthenticated: false })).cookie;
  });

  /** Everything a refused change must leave as it was: the rows, the document, the audit trail, the mail. */
  async function untouched(id: string) {
    return {
      rows: await stored(),
      document: await getLibraryDocument(id),
      lastAudit: (await listAuditEvents({ limit: 1 })).events[0]?.id,
      mail: smtp.messages.length,
    };
  }

  async function expectConfirmFirst(response: Response, id: string) {
    expect(response.status).toBe(403);
    const body = (await response.json()) as { reply: { error: Record<string, string[]> }; confirmHref: string };
    expect(Object.values(body.reply.error).flat()).toEqual([sudoContent.needed]);
    expect(body.confirmHref).toBe(`/financing/confirm?returnTo=${encodeURIComponent(`/financing/library/${id}`)}`);
  }

  it("uploads without a confirmation a draft that investors neither see nor open", async () => {
    const uploaded = await upload(lapsed, {
      title: "Draft deck",
      description: "",
      audience: "chosen",
      chosen: investor.email,
      file: { bytes: pdf, name: "draft.pdf", type: "application/pdf" },
    });
    draftId = documentIdIn(uploaded);
    expect(await getLibraryDocument(draftId)).toMatchObject({ published: false });
    const reader = toPublicUser(investor);
    expect((await listOpenableDocuments(reader, null)).map((document) => document.id)).not.toContain(draftId);
    const opened = await callRoute(pages.material, {
      path: `/financing/materials/${draftId}`,
      params: { documentId: draftId },
      headers: { Cookie: await sessionCookieFor(investor.id) },
    });
    expect(opened.status).toBe(404);
  });

  it("previews the draft to the administrator as an investor gets it: a copy stamped for whoever opens it", async () => {
    const shown = await callRoute(pages.document, {
      path: `/financing/library/${draftId}`,
      params: { id: draftId },
      headers: { Cookie: lapsed },
    });
    expect(((await shown.json()) as { sudo: { until: string | null } }).sudo.until).toBeNull();
    const preview = await callRoute(pages.material, {
      path: `/financing/materials/${draftId}`,
      params: { documentId: draftId },
      headers: { Cookie: lapsed },
    });
    expect(preview.status).toBe(200);
    expect(preview.headers.get("Content-Type")).toBe("application/pdf");
    const text = (await pdfPageTexts(new Uint8Array(await preview.arrayBuffer()))).join(" ");
    expect(text).toContain(admin.email);
    expect(text).toContain(admin.full_name);
  });

  it("refuses to publish with a lapsed confirmation, changing nothing, and publishes once confirmed", async () => {
    const before = await untouched(draftId);
    await expectConfirmFirst(await onPage(lapsed, draftId, { intent: "publish" }), draftId);
    expect(await untouched(draftId)).toEqual(before);

    expect((await onPage(adminCookie, draftId, { intent: "publish" })).status).toBe(302);
    expect(await getLibraryDocument(draftId)).toMatchObject({ published: true });
    expect(await openableVersion(toPublicUser(investor), draftId, null)).toMatchObject({ ok: true });
  });

  it("refuses a published document's wider audience with a lapsed confirmation; a narrower one goes through", async () => {
    for (const fields of [
      { audience: "signed", chosen: "" },
      { audience: "chosen", chosen: `${investor.email}\n${other.email}` },
    ]) {
      const before = await untouched(draftId);
      await expectConfirmFirst(await onPage(lapsed, draftId, { intent: "audience", ...fields }), draftId);
      expect(await untouched(draftId)).toEqual(before);
    }
    expect(await openableVersion(toPublicUser(other), draftId, null)).toMatchObject({ ok: false, status: 403 });

    // The same list again widens nothing; unpublishing only narrows.
    expect(
      (await onPage(lapsed, draftId, { intent: "audience", audience: "chosen", chosen: investor.email })).status,
    ).toBe(302);
    expect((await onPage(adminCookie, draftId, { intent: "audience", audience: "signed", chosen: "" })).status).toBe(
      302,
    );
    expect(await getLibraryDocument(draftId)).toMatchObject({ audience: "signed", chosen: [] });
    expect(await openableVersion(toPublicUser(other), draftId, null)).toMatchObject({ ok: true });
    // From every signed investor to a chosen few only narrows: it needs no confirmation.
    const narrowed = await onPage(lapsed, draftId, { intent: "audience", audience: "chosen", chosen: investor.email });
    expect(narrowed.status).toBe(302);
    expect(await openableVersion(toPublicUser(other), draftId, null)).toMatchObject({ ok: false, status: 403 });
  });

  it("refuses a published document's new version with a lapsed confirmation, storing nothing; a draft's goes through", async () => {
    const before = await untouched(draftId);
    const refused = await newVersion(lapsed, draftId, { file: { bytes: pdf, name: "draft-v2.pdf" } });
    await expectConfirmFirst(refused, draftId);
    expect(await untouched(draftId)).toEqual(before);

    const confirmed = await newVersion(adminCookie, draftId, { file: { bytes: pdf, name: "draft-v2.pdf" } });
    expect(confirmed.status).toBe(302);
    expect((await getLibraryDocument(draftId))?.latest).toMatchObject({ number: 2, fileName: "draft-v2.pdf" });

    expect((await onPage(lapsed, draftId, { intent: "unpublish" })).status).toBe(302);
    const ofDraft = await newVersion(lapsed, draftId, { file: { bytes: pdf, name: "draft-v3.pdf" } });
    expect(ofDraft.status).toBe(302);
    expect(await getLibraryDocument(draftId)).toMatchObject({ published: false, latest: { number: 3 } });
    expect(smtp.messages).toEqual([]);
  });
});
