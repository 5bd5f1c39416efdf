/**
 * The library as an investor meets it, with and without JavaScript: each material once, the specification's
 * links with the library's details beside them, "New" until seen; a PDF that opens stamped under the firm's name and the document's title; a
 * video behind its disclaimer, played in byte ranges; and a document shared with others, refused.
 */
import { randomUUID } from "node:crypto";
import { videoAgreement } from "~/content/intro-video";
import { libraryView, materialsMessages } from "~/content/materials";
import { updateUser, withDatabase } from "../support/outside-database";
import { loggedInAccount } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { E2E_DATABASE } from "./support/server";

/** The specification's four links, each the library's first documents' place on the page. */
const SPECIFICATION_LINKS = ["Introductory video", "Description of the firm (pdf)", "Slide deck", "Offering details"];

/** The id of the library's first document of this title. */
function firstDocument(title: string) {
  return withDatabase(E2E_DATABASE, async (db) => {
    const row = await db
      .selectFrom("documents")
      .select("id")
      .where("title", "=", title)
      .orderBy("created_at")
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/** A document shared with no one but the investors chosen for it (none), made of the first video's bytes. */
function documentSharedWithOthers() {
  return withDatabase(E2E_DATABASE, async (db) => {
    const video = await db
      .selectFrom("documents as d")
      .innerJoin("document_versions as v", "v.document_id", "d.id")
      .select(["v.blob_id", "v.size", "v.sha256"])
      .where("d.title", "=", "Introductory video")
      .executeTakeFirstOrThrow();
    const id = randomUUID();
    const at = Date.now();
    await db
      .insertInto("documents")
      .values({
        id,
        title: "Board only",
        description: "",
        kind: "video",
        position: 1000,
        audience: "chosen",
        published: 1,
        created_by: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db
      .insertInto("document_versions")
      .values({
        id: randomUUID(),
        document_id: id,
        number: 1,
        file_name: "board.mp4",
        content_type: "video/mp4",
        size: video.size,
        sha256: video.sha256,
        blob_id: video.blob_id,
        captions_blob_id: null,
        uploaded_by: null,
        created_at: at,
      })
      .execute();
    return id;
  });
}

test("an investor finds each material once, opens a stamped PDF and a video, and is refused a document shared with others", async ({
  page,
  javaScriptOn,
}) => {
  // A sign-up, five pages, a video and four accessibility scans: 45 s without JavaScript on a slow machine.
  test.slow();
  const account = await loggedInAccount(page, javaScriptOn, "library-reader");
  await withDatabase(E2E_DATABASE, (db) =>
    updateUser(db, account.email, { fullName: "Ada Library", address: "1 Reading Row", signed: true }),
  );
  const hidden = await documentSharedWithOthers();

  await visit(page, "/financing/materials", javaScriptOn);
  const library = page.getByRole("navigation", { name: "Materials" });
  // A link's name is its words, and for the video that it opens in a new tab.
  const linkNamed = (title: string) =>
    page.getByRole("link", { name: new RegExp(`^${title.replace(/[()]/g, "\\$&")}( \\(opens in a new tab\\))?$`) });
  const item = (title: string) => library.getByRole("listitem").filter({ has: linkNamed(title) });
  // Each material once: the specification's link, in its words, with the library's details beside it, and
  // the library's own entry for the same file not listed again.
  for (const title of SPECIFICATION_LINKS) {
    await expect(linkNamed(title)).toHaveCount(1);
    await expect(item(title).getByText(libraryView.marks.new, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Description of the firm", exact: true })).toHaveCount(0);
  await expect(item("Slide deck").getByRole("link")).toHaveAttribute("href", "/pdfs/download.pdf");
  await expect(item("Slide deck")).toContainText(/PDF, 1\.4 KB, updated \w+ \d+, \d{4}/);
  await expect(item("Slide deck")).toContainText("The investor presentation.");
  await expect(library.getByRole("link", { name: "Board only" })).toHaveCount(0);
  await expectNoAxeViolations(page, "the materials page with its library");

  // Seen once, nothing is new on the next visit.
  await visit(page, "/financing/materials", javaScriptOn);
  await expect(item("Slide deck")).toBeVisible();
  await expect(item("Slide deck").getByText(libraryView.marks.new, { exact: true })).toHaveCount(0);

  // The library's copy of a PDF opens inline, stamped, under a name that says what it is.
  const pdf = await page.request.get(`/financing/materials/${await firstDocument("Slide deck")}`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-disposition"]).toMatch(/^inline; filename=".* - Slide deck\.pdf"/);
  expect((await pdf.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");

  // The library's video page: behind its disclaimer, and plays in byte ranges.
  await visit(page, `/financing/materials/${await firstDocument("Introductory video")}/watch`, javaScriptOn);
  await expect(page.getByRole("heading", { level: 1, name: "Introductory video" })).toBeVisible();
  await page.getByLabel(videoAgreement.label).check();
  await page.getByRole("button", { name: videoAgreement.submit }).click();
  const video = page.locator("video");
  await expect(video).toBeVisible();
  const src = await video.getAttribute("src");
  const range = await page.request.get(src!, { headers: { Range: "bytes=0-31" } });
  expect(range.status()).toBe(206);
  expect((await range.body()).subarray(4, 8).toString("latin1")).toBe("ftyp");
  await expectNoAxeViolations(page, "a library video's page");

  // A document shared with chosen investors only is refused to the others, in words.
  const refused = await visit(page, `/financing/materials/${hidden}/watch`, javaScriptOn);
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: libraryView.refusalHeading })).toBeVisible();
  await expect(page.getByText(materialsMessages.notInAudience)).toBeVisible();
  await expectNoAxeViolations(page, "a document refused");
});
