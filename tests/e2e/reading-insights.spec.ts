/**
 * The firm's view of reading time at 375 px, with and without JavaScript: a document's time and drop-off
 * drawn as SVG with the page, the engagement ranking with its formula, and the document's download
 * setting in plain words, changed by a form.
 */
import { randomUUID } from "node:crypto";
import { libraryContent } from "~/content/library";
import { insightsContent } from "~/content/reading-insights";
import { insertUsers, withDatabase } from "../support/outside-database";
import { createAdministrator, logIn } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { publishedPdf } from "./support/library-pdf";
import { E2E_DATABASE } from "./support/server";

/** An investor who read pages 1 to 3 of the document's copy delivered an hour ago, 40, 20 and 10 seconds, as the viewer's reports leave them. */
function readerOf(documentId: string) {
  return withDatabase(E2E_DATABASE, async (db) => {
    const [user] = await insertUsers(db, [{ named: true, signed: true }]);
    const version = await db
      .selectFrom("document_versions")
      .select("id")
      .where("document_id", "=", documentId)
      .executeTakeFirstOrThrow();
    // Counted when the first report came (app/models/reading/page-count.server.ts).
    await db.updateTable("document_versions").set({ page_count: 20 }).where("id", "=", version.id).execute();
    const [copy, at] = [randomUUID(), Date.now() - 3_600_000];
    await db
      .insertInto("document_opens")
      .values({ id: copy, document_id: documentId, version_id: version.id, user_id: user.id, opened_at: at })
      .execute();
    await db
      .insertInto("reading_streams")
      .values({ download_id: copy, stream: randomUUID(), total_ms: 70_000, updated_at: at })
      .execute();
    await db
      .insertInto("page_times")
      .values(
        [40_000, 20_000, 10_000].map((ms, index) => ({
          download_id: copy,
          page: index + 1,
          document_id: documentId,
          user_id: user.id,
          ms,
          delivered_at: at,
          updated_at: at,
        })),
      )
      .execute();
    return user;
  });
}

test("an administrator sees a document's time and drop-off, the engagement ranking, and sets a document to the viewer only", async ({
  page,
  javaScriptOn,
}) => {
  test.slow();
  const documentId = await publishedPdf(`Insights ${Date.now()}`, 20);
  const reader = await readerOf(documentId);
  await logIn(page, javaScriptOn, await createAdministrator());
  await page.setViewportSize({ width: 375, height: 740 });

  await visit(page, `/financing/library/reading/${documentId}`, javaScriptOn);
  await expect(page.getByRole("heading", { name: insightsContent.document.heading })).toBeVisible();
  await expect(page.getByText(insightsContent.document.summary(1, 70_000, 3 / 20))).toBeVisible();
  await expect(page.getByRole("img", { name: new RegExp(insightsContent.document.chartTitle) })).toBeVisible();
  await expect(page.locator("svg rect")).toHaveCount(20);
  await expectNoAxeViolations(page, "a document's reading time at 375 px");

  await visit(page, "/financing/library/engagement", javaScriptOn);
  await expect(page.getByText(insightsContent.engagement.formula)).toBeVisible();
  await expect(page.getByRole("link", { name: reader.email })).toBeVisible();
  await expectNoAxeViolations(page, "the engagement ranking at 375 px");

  await visit(page, `/financing/library/${documentId}`, javaScriptOn);
  await expect(page.getByText(libraryContent.document.downloadHonesty)).toBeVisible();
  await page.getByRole("button", { name: libraryContent.document.viewerOnly }).click();
  await expect(page.getByText(libraryContent.document.viewerOnlyNow)).toBeVisible();
  await expect(page.getByRole("button", { name: libraryContent.document.allowDownload })).toBeVisible();
  await expectNoAxeViolations(page, "a document shown in the viewer only, at 375 px");
});
