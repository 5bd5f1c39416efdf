/**
 * The administrators' library in the browser, with JavaScript on and off: a PDF and a video with its
 * captions uploaded (a refused form and a refused 3000-page PDF first) as drafts, the PDF previewed as an
 * investor gets it (a stamped copy) and published only after "Confirm it's you", seen in the list and moved,
 * replaced by a second
 * version, unpublished, and given a chosen audience. With JavaScript, a larger upload shows its
 * progress and Cancel leaves nothing in the list. Axe on each page; nothing scrolls sideways at 320 or 375 px.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { materialsMessages } from "~/content/materials";
import { PDF_STAMP_LIMITS } from "~/lib/material-limits";
import { manyPagesPdf } from "../support/hostile-pdfs";
import { expireReauthentication, insertUsers, reauthenticateNow, withDatabase } from "../support/outside-database";
import { pdfPageTexts } from "../support/pdf-text";
import { unusedTotpCode } from "../support/totp";
import { createAdministrator, logIn, uniqueEmail } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { E2E_DATABASE } from "./support/server";

async function expectNoSidewaysScroll(page: Page, where: string) {
  for (const width of [320, 375]) {
    await page.setViewportSize({ width, height: 740 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const widest = await page.evaluate(() =>
      [...document.querySelectorAll("main *")]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`)
        .slice(0, 3)
        .join(", "),
    );
    expect(overflow, `${where} at ${width} px (${widest})`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function checkPage(page: Page, where: string) {
  await expectNoAxeViolations(page, where);
  await expectNoSidewaysScroll(page, where);
}

const temporary = mkdtempSync(path.join(tmpdir(), "library-e2e-"));
const captionsFile = path.join(temporary, "founders.vtt");
writeFileSync(captionsFile, "WEBVTT\n\n00:00.000 --> 00:02.000\nWelcome to the round\n");
const longPdf = path.join(temporary, "long.pdf");
writeFileSync(longPdf, manyPagesPdf(3000));

/** A document's card in the list. */
const card = (page: Page, title: string) => page.locator(".library__card", { hasText: title });

test("an administrator uploads a PDF and a video as drafts, previews, publishes, replaces, moves, unpublishes and chooses the audience", async ({
  page,
  javaScriptOn,
}) => {
  test.slow();
  const admin = await createAdministrator();
  const reader = uniqueEmail("library-reader");
  await withDatabase(E2E_DATABASE, (db) => insertUsers(db, [{ email: reader, signed: true, named: true }]));
  const deck = `Deck ${reader.slice(0, 26)}`;
  const film = `Film ${reader.slice(0, 26)}`;
  await logIn(page, javaScriptOn, admin);
  await visit(page, "/financing", javaScriptOn);
  await page.getByRole("link", { name: "Library", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Library", level: 1 })).toBeVisible();
  await checkPage(page, "the library");

  await page.getByRole("link", { name: "Upload a document" }).click();
  await expect(page.getByRole("heading", { name: "Upload a document", level: 1 })).toBeVisible();
  if (javaScriptOn) await visit(page, "/financing/library/new", javaScriptOn);
  // Said before the upload: what happens after it.
  await expect(page.getByText(/^The upload is a draft: investors do not see it until you publish it/)).toBeVisible();
  await checkPage(page, "the upload form");

  // A title with a zero-width space: refused, and the file must be chosen again.
  await page.getByLabel("Title").fill(`Deck\u200b`);
  await page.getByLabel("File (PDF or MP4 video)").setInputFiles("private/download.pdf");
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText(/Remove the invisible characters/).first()).toBeVisible();
  await expect(page.getByText(/Choose the file again/).first()).toBeVisible();
  await checkPage(page, "the refused upload form");

  // A PDF each copy of which would cost too much: refused, saying why.
  await page.getByLabel("Title").fill(deck);
  await page.getByLabel("File (PDF or MP4 video)").setInputFiles(longPdf);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText(materialsMessages.tooManyPages(3000, PDF_STAMP_LIMITS.pages)).first()).toBeVisible();

  await page.getByLabel("Title").fill(deck);
  await page.getByLabel("File (PDF or MP4 video)").setInputFiles("private/download.pdf");
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByRole("heading", { name: deck, level: 1 })).toBeVisible();
  await expect(page.getByRole("row", { name: /download\.pdf/ })).toBeVisible();
  await expect(page.getByText(/^A draft: investors do not see this document/)).toBeVisible();
  await checkPage(page, "a document's page");

  // The preview: the copy an investor gets, stamped (here with the administrator's own address).
  const preview = page.getByRole("link", { name: "Preview as an investor sees it" });
  const copy = await page.request.get((await preview.getAttribute("href"))!);
  expect(copy.status()).toBe(200);
  expect(copy.headers()["content-type"]).toBe("application/pdf");
  expect((await pdfPageTexts(await copy.body())).join(" ")).toContain(admin.email);

  // Publishing widens who reads: with the confirmation gone by, it asks for "Confirm it's you" first.
  await withDatabase(E2E_DATABASE, (db) => expireReauthentication(db, admin.email));
  const documentPath = new URL(page.url()).pathname;
  await visit(page, documentPath, javaScriptOn);
  const publication = page.getByRole("region", { name: "Publication" });
  await publication.getByRole("button", { name: "Publish" }).click();
  await expect(publication.getByText(/^Confirm it's you first/)).toBeVisible();
  await checkPage(page, "a document's page, its publication refused");
  await publication.getByRole("link", { name: "Confirm it's you" }).click();
  await expect(page).toHaveURL(/\/financing\/confirm\?returnTo=/);
  await page.getByLabel("Password", { exact: true }).fill(admin.password);
  await page.getByLabel(/Code from your authenticator app/).fill(await unusedTotpCode(admin.totpSecret!));
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${documentPath}$`));
  if (javaScriptOn) await visit(page, documentPath, javaScriptOn);
  await publication.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Investors in the audience can see and open this document.")).toBeVisible();

  await visit(page, "/financing/library/new", javaScriptOn);
  await page.getByLabel("Title").fill(film);
  await page.getByLabel("File (PDF or MP4 video)").setInputFiles("private/investorvideo.mp4");
  await page.getByLabel("Captions (WebVTT, optional, for a video only)").setInputFiles(captionsFile);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByRole("heading", { name: film, level: 1 })).toBeVisible();
  await expect(page.getByRole("row", { name: /investorvideo\.mp4/ })).toContainText("Yes");

  await visit(page, "/financing/library", javaScriptOn);
  await expect(card(page, deck)).toContainText("PDF");
  await expect(card(page, film)).toContainText("Video");
  await expect(card(page, film)).toContainText("Every investor with a signed NDA");
  // Moved up until it is above the deck: other tests may be adding documents to the same library meanwhile.
  const order = () => page.locator(".library__card h2").allTextContents();
  for (let moves = 0; ; moves++) {
    const before = await order();
    if (before.indexOf(film) < before.indexOf(deck)) break;
    expect(moves, "moves up").toBeLessThan(6);
    await page.getByRole("button", { name: `Move ${film} up` }).click();
    await expect.poll(async () => (await order()).indexOf(film)).toBeLessThan(before.indexOf(film));
  }

  await page.getByRole("link", { name: deck }).click();
  await expect(page.getByRole("heading", { name: deck, level: 1 })).toBeVisible();
  if (javaScriptOn) await visit(page, page.url(), javaScriptOn);
  // A published document's new version reaches investors at once: with the confirmation gone by, refused.
  await withDatabase(E2E_DATABASE, (db) => expireReauthentication(db, admin.email));
  const replace = page.getByRole("region", { name: "Replace with a new version" });
  await replace.getByLabel("File (PDF or MP4 video)").setInputFiles("private/download.pdf");
  await replace.getByRole("button", { name: "Upload the new version" }).click();
  await expect(page.getByText(/^Confirm it's you first/).first()).toBeVisible();
  await checkPage(page, "a new version refused for want of a confirmation");
  // Confirmed again (the confirmation page itself is above): the same upload goes through.
  await withDatabase(E2E_DATABASE, (db) => reauthenticateNow(db, admin.email));
  await visit(page, documentPath, javaScriptOn);
  await replace.getByLabel("File (PDF or MP4 video)").setInputFiles("private/download.pdf");
  await replace.getByRole("button", { name: "Upload the new version" }).click();
  await expect(page.getByText("Version 2 published").first()).toBeVisible();
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(3);

  await page.getByRole("button", { name: "Unpublish" }).click();
  await expect(page.getByText(/^A draft: investors do not see this document/)).toBeVisible();
  await page.getByLabel("Only the investors listed below").check();
  await page.getByLabel("Chosen investors' e-mail addresses").fill(reader);
  await page.getByRole("button", { name: "Save the audience" }).click();
  await expect(page.getByText("1 chosen investor").first()).toBeVisible();
  await checkPage(page, "a document's page after its changes");

  await visit(page, `${documentPath}/versions`, javaScriptOn);
  await expect(page.getByRole("heading", { name: `A new version of ${deck}` })).toBeVisible();
  await checkPage(page, "a new version's page");

  await visit(page, "/financing/library", javaScriptOn);
  await expect(card(page, deck)).toContainText("Draft, not published");
  await expect(card(page, deck)).toContainText("1 chosen investor");
  await expect(card(page, deck)).toContainText("Version 2");
});

test("with JavaScript, an upload shows its progress and Cancel keeps nothing", async ({ page, javaScriptOn }) => {
  test.skip(!javaScriptOn, "the progress bar and Cancel need JavaScript");
  const admin = await createAdministrator();
  const large = path.join(temporary, "large.pdf");
  writeFileSync(large, Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(12 * 1024 * 1024, 0x20)]));
  const title = `Cancelled ${uniqueEmail("upload").slice(0, 30)}`;
  await logIn(page, javaScriptOn, admin);
  await visit(page, "/financing/library/new", javaScriptOn);
  // Sent slowly, so that the progress shows before the last byte.
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("Network.enable");
  await devtools.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 1024 * 1024,
  });
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("File (PDF or MP4 video)").setInputFiles(large);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
  await expect(page.getByText(/^\d+% sent$/)).toBeVisible();
  await checkPage(page, "the upload form while it sends");
  await page.getByRole("button", { name: "Cancel the upload" }).click();
  await expect(page.getByText("The upload was cancelled; nothing was kept.")).toBeVisible();
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  await devtools.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await visit(page, "/financing/library", javaScriptOn);
  await expect(page.getByRole("heading", { name: "Library", level: 1 })).toBeVisible();
  await expect(card(page, title)).toHaveCount(0);
});
