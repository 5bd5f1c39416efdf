/**
 * After the materials (issue 54), in the browser with JavaScript on and off, at 375 px, axe on each page:
 * an investor asks a question (one past the hour's limit refused in words), says how they qualify and
 * indicates interest (a bad amount refused in words); an administrator answers on the queue, reads the
 * investors table (the verification's expiry, at 375 and 320 px), the pipeline (its funnel drawn on the
 * server) and the settings page.
 */
import type { Page } from "@playwright/test";
import { addVerification, updateUser, withDatabase } from "../support/outside-database";
import { createAdministrator, createVerifiedAccount, logIn, submitLogin } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { E2E_DATABASE } from "./support/server";

test.use({ viewport: { width: 375, height: 740 } });

function turnOn() {
  return withDatabase(E2E_DATABASE, (db) =>
    db.updateTable("portal_features").set({ questions: 1, qualification: 1, interest: 1 }).execute(),
  );
}

async function fitsAndPasses(page: Page, where: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${where} scrolls sideways`).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, where);
}

test("an investor asks, says how they qualify and indicates interest; an administrator answers and reads the pipeline", async ({
  page,
  javaScriptOn,
}) => {
  test.slow();
  await turnOn();
  const investor = await createVerifiedAccount(page, javaScriptOn, "after-materials");
  await withDatabase(E2E_DATABASE, (db) =>
    updateUser(db, investor.email, { fullName: "Ada After", address: "1 Pipeline Row", signed: true }),
  );
  // With the NDA signed, the sign-in leads to the materials.
  await submitLogin(page, javaScriptOn, investor);
  await expect(page).toHaveURL(/\/financing\/materials$/);
  const question = `Is the minimum investment negotiable? (${javaScriptOn ? "js" : "no js"})`;

  await visit(page, "/financing/materials", javaScriptOn);
  await page.getByRole("link", { name: "Questions and answers" }).click();
  await expect(page.getByRole("heading", { name: "Questions and answers", level: 1 })).toBeVisible();
  await page.getByLabel("Your question").fill(question);
  await page.getByRole("button", { name: "Send the question" }).click();
  await expect(page.getByText(question)).toBeVisible();
  await expect(page.getByText("Waiting for an answer")).toBeVisible();
  await fitsAndPasses(page, "the investor's questions");

  // The hour's questions used up (as ten questions would): the next is refused in words, and not stored.
  await withDatabase(E2E_DATABASE, async (db) => {
    const { id } = await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", investor.email)
      .executeTakeFirstOrThrow();
    const full = { count: 10, reset_at: Date.now() + 3_600_000 };
    await db
      .insertInto("rate_limits")
      .values({ key: `questions:${id}`, ...full })
      .onConflict((conflict) => conflict.column("key").doUpdateSet(full))
      .execute();
  });
  const oneMore = `And the closing date? (${javaScriptOn ? "js" : "no js"})`;
  await page.getByLabel("Your question").fill(oneMore);
  await page.getByRole("button", { name: "Send the question" }).click();
  await expect(page.getByText(/You can ask up to 10 questions an hour\. Try again in \d+ minutes\./)).toBeVisible();
  await expect(page.locator(".questions__list").getByText(oneMore)).toHaveCount(0);
  await fitsAndPasses(page, "the investor's questions, refused");

  await visit(page, "/financing/qualification", javaScriptOn);
  await page.getByLabel(/I hold a Series 7/).check();
  await page.getByRole("button", { name: "Save my statement" }).click();
  await expect(page.getByText(/I hold a Series 7, Series 65 or Series 82 license in good standing \(/)).toBeVisible();
  await expect(page.getByText("The firm has not recorded a verification.")).toBeVisible();
  await fitsAndPasses(page, "the qualification page");

  await visit(page, "/financing/interest", javaScriptOn);
  await expect(page.getByText(/not a commitment/)).toBeVisible();
  await page.getByLabel("Amount in U.S. dollars").fill("-5");
  await page.getByRole("button", { name: "Save my indication" }).click();
  await expect(page.getByText("Give the amount as a whole number of U.S. dollars, more than 0.")).toBeVisible();
  await page.getByLabel("Amount in U.S. dollars").fill("250,000");
  await page.getByRole("button", { name: "Save my indication" }).click();
  await expect(page.getByText("$250,000", { exact: true })).toBeVisible();
  await fitsAndPasses(page, "the interest page");

  // The administrator, in a browser of their own.
  const context = await page
    .context()
    .browser()!
    .newContext({
      baseURL: test.info().project.use.baseURL,
      javaScriptEnabled: javaScriptOn,
      viewport: { width: 375, height: 740 },
    });
  const adminPage = await context.newPage();
  try {
    await logIn(adminPage, javaScriptOn, await createAdministrator());
    await visit(adminPage, "/financing/question-queue", javaScriptOn);
    const card = adminPage.locator(".administrators__card", { hasText: question });
    await card.getByLabel(/Answer published to every investor/).fill("Yes, from $10,000.");
    await card.getByRole("button", { name: "Send the answer" }).click();
    await expect(adminPage.getByText("The answer is sent.").first()).toBeVisible();
    await visit(adminPage, "/financing/question-queue?status=answered", javaScriptOn);
    await expect(adminPage.locator(".administrators__card", { hasText: question })).toBeVisible();
    await fitsAndPasses(adminPage, "the question queue");

    await visit(adminPage, "/financing/pipeline", javaScriptOn);
    await expect(adminPage.locator("svg.pipeline-funnel title")).toHaveText("The pipeline as a funnel");
    await expect(adminPage.getByRole("link", { name: "Show the investors: NDA signed" })).toHaveAttribute(
      "href",
      "/financing?stage=nda_signed",
    );
    await expect(adminPage.getByRole("link", { name: "Indicated interest", exact: true })).toHaveAttribute(
      "href",
      "/financing?stage=indicated",
    );
    await fitsAndPasses(adminPage, "the pipeline");

    // The investors table says until when the firm's verification stands, and still fits a phone.
    await withDatabase(E2E_DATABASE, (db) => addVerification(db, investor.email, Date.UTC(2031, 2, 12)));
    await visit(adminPage, `/financing?q=${encodeURIComponent(investor.email)}`, javaScriptOn);
    await expect(adminPage.getByText("Verified until 2031-03-12")).toBeVisible();
    await fitsAndPasses(adminPage, "the investors table at 375 px");
    await adminPage.setViewportSize({ width: 320, height: 700 });
    await fitsAndPasses(adminPage, "the investors table at 320 px");
    await adminPage.setViewportSize({ width: 375, height: 740 });

    await visit(adminPage, "/financing/settings", javaScriptOn);
    await expect(adminPage.getByRole("heading", { name: "What investors see after the materials" })).toBeVisible();
    await fitsAndPasses(adminPage, "the settings page");
  } finally {
    await context.close();
  }

  // The investor now reads the published answer beside their question.
  await visit(page, "/financing/questions", javaScriptOn);
  await expect(page.getByText("Yes, from $10,000.").first()).toBeVisible();
});
