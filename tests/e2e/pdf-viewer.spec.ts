/**
 * A library PDF in the page's viewer (pdf.js, loaded on that page only): with JavaScript the materials
 * list opens it in the viewer, which pages through the investor's stamped copy by buttons and keys at
 * 375 px, and reports the time each page was on screen, counted only while the tab is visible and the
 * reader active; the stored times are what the reader did, on the page's own clock (no sleeps). Without
 * JavaScript the list opens the stamped PDF itself, as before.
 */
import type { Page } from "@playwright/test";
import { viewerText } from "~/content/reading";
import { updateUser, withDatabase } from "../support/outside-database";
import { loggedInAccount } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { publishedPdf } from "./support/library-pdf";
import { E2E_DATABASE } from "./support/server";

const PAGES = 20;
const PER_PAGE_MS = 3_000;

/** The reader's stored time per page, all copies of the document together. */
function storedPageTimes(documentId: string, userId: string) {
  return withDatabase(E2E_DATABASE, async (db) => {
    const rows = await db
      .selectFrom("page_times")
      .select(["page", "ms"])
      .where("document_id", "=", documentId)
      .where("user_id", "=", userId)
      .orderBy("page")
      .execute();
    return Object.fromEntries(rows.map((row) => [row.page, Number(row.ms)]));
  });
}

/** The copy was delivered an hour ago: the page's clock runs faster than the server's, which bounds the time. */
function deliveredAnHourAgo(documentId: string) {
  return withDatabase(E2E_DATABASE, (db) =>
    db
      .updateTable("document_opens")
      .set((eb) => ({ opened_at: eb("opened_at", "-", 3_600_000) }))
      .where("document_id", "=", documentId)
      .execute(),
  );
}

function setVisibility(page: Page, state: "visible" | "hidden") {
  return page.evaluate((value) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => value });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

test("a library PDF opens in the viewer with JavaScript, its pages' time counted only while visible and active; without, as the stamped PDF", async ({
  page,
  javaScriptOn,
}) => {
  test.slow();
  await page.setViewportSize({ width: 375, height: 800 });
  const account = await loggedInAccount(page, javaScriptOn, "viewer-reader");
  await withDatabase(E2E_DATABASE, (db) =>
    updateUser(db, account.email, { fullName: "Ada Viewer", address: "1 Reading Row", signed: true }),
  );
  const title = `Twenty pages ${Date.now()}`;
  const documentId = await publishedPdf(title, PAGES);
  const userId = await withDatabase(
    E2E_DATABASE,
    async (db) =>
      (await db.selectFrom("users").select("id").where("email", "=", account.email).executeTakeFirstOrThrow()).id,
  );

  if (!javaScriptOn) {
    await visit(page, "/financing/materials", false);
    const link = page.getByRole("link", { name: title, exact: true });
    await expect(link).toHaveAttribute("href", `/financing/materials/${documentId}`);
    const pdf = await page.request.get(`/financing/materials/${documentId}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    await visit(page, `/financing/materials/${documentId}/read`, false);
    await expect(page.getByRole("link", { name: viewerText.openPdf })).toHaveAttribute(
      "href",
      `/financing/materials/${documentId}`,
    );
    await expect(page.getByText(viewerText.privacyNotice().slice(0, 40))).toBeVisible();
    return;
  }

  // The page's own clock, which the test stops once the viewer is ready (pdf.js's loading needs it running).
  await page.clock.install();
  await visit(page, "/financing/materials", true);
  const pdfScripts: string[] = [];
  page.on("request", (request) => {
    if (/pdf(\.worker)?[^/]*\.m?js/.test(new URL(request.url()).pathname)) pdfScripts.push(request.url());
  });
  expect(pdfScripts).toEqual([]);
  await page.getByRole("link", { name: title, exact: true }).click();
  await expect(page).toHaveURL(`/financing/materials/${documentId}/read`);
  const viewer = page.getByRole("region", { name: new RegExp(`^${title}: Page \\d+ of ${PAGES}$`) });
  // The first load of pdf.js and its worker is heavy on a busy machine.
  await expect(viewer).toHaveAccessibleName(`${title}: Page 1 of ${PAGES}`, { timeout: 30_000 });
  await expect(page.getByRole("img", { name: `Page 1 of ${PAGES}` })).toBeVisible();
  expect(pdfScripts.some((url) => url.includes("/viewer/pdf.worker.mjs"))).toBe(true);
  await expect(page.getByRole("link", { name: viewerText.download })).toBeVisible();
  await expect(page.getByText(viewerText.privacyNotice().slice(0, 40))).toBeVisible();
  await deliveredAnHourAgo(documentId);
  // Page 1's first moments ran on the real clock; hidden, the clock stands still, and from here on only
  // the test moves it.
  await setVisibility(page, "hidden");
  await page.clock.pauseAt(new Date(Date.now() + 60_000));
  await setVisibility(page, "visible");

  // Pages 1 to 19, three seconds each, turned by the keys; then by a button and the page number.
  for (let n = 1; n < PAGES; n += 1) {
    await page.clock.runFor(PER_PAGE_MS);
    await viewer.press("ArrowRight");
    await expect(page.getByRole("img", { name: `Page ${n + 1} of ${PAGES}` })).toBeAttached();
  }
  // Page 20, left alone for 200 s: a minute counts, then the clock stops.
  await page.clock.runFor(200_000);
  // Hidden for two minutes: none of it counts.
  await setVisibility(page, "hidden");
  await page.clock.runFor(120_000);
  // Back again, four seconds, then the reader leaves the page.
  await setVisibility(page, "visible");
  await page.clock.runFor(4_000);
  await page.getByRole("link", { name: viewerText.backToMaterials }).click();
  await expect(page).toHaveURL("/financing/materials");

  const expected: Record<number, number> = {};
  for (let n = 2; n < PAGES; n += 1) expected[n] = PER_PAGE_MS;
  expected[PAGES] = 60_000 + 4_000;
  await expect
    .poll(async () => {
      const { 1: first, ...rest } = await storedPageTimes(documentId, userId);
      // Page 1: its three seconds, and the real moments between the viewer's readiness and the clock's stop.
      return first >= PER_PAGE_MS && first < PER_PAGE_MS + 15_000 ? rest : { first, ...rest };
    })
    .toEqual(expected);

  // The scan waits for animation frames, which the standing clock holds back.
  await page.clock.resume();
  await visit(page, `/financing/materials/${documentId}/read`, true);
  await expect(page.getByRole("img", { name: `Page 1 of ${PAGES}` })).toBeVisible();
  await expectNoAxeViolations(page, "the PDF viewer at 375 px");
});
