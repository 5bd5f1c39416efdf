/**
 * An investor's page, with and without JavaScript: reached from the table, a correction with its reason
 * (a line of its own beneath the NDA's "Name and address given"), axe-clean, no sideways scroll at 320 px (the table's cards too); after a deletion the table lands on the
 * next row; an NDA signed outside the portal marked completed by hand, with its reason and signed copy
 * (refused without a reason or with a file that is not a PDF), shown in the NDA record at 375 px; and an
 * investor who lost their only factor signs in again after an administrator's reset.
 */
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { PDFDocument } from "pdf-lib";
import { enrolTotp, expireReauthentication, insertUsers, withDatabase } from "../support/outside-database";
import { unusedTotpCode } from "../support/totp";
import { createAdministrator, createVerifiedAccount, logIn, type TestAccount } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import { E2E_DATABASE } from "./support/server";

test.describe.configure({ timeout: 90_000 });

const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function seed(tag: string, count: number) {
  const base = Date.UTC(2025, 7, 1, 12, 0, 0);
  return withDatabase(E2E_DATABASE, (db) =>
    insertUsers(
      db,
      Array.from({ length: count }, (_, i) => ({
        email: `${tag}-${i}@example.com`,
        fullName: `${tag} Person ${i}`,
        address: `${i} Page Street`,
        createdAt: base + i * 60_000,
      })),
    ),
  );
}

test("the investor's page: from the table, a correction with its reason; axe-clean, no sideways scroll at 320 px", async ({
  page,
  javaScriptOn,
}) => {
  const tag = `page${randomBytes(3).toString("hex")}`;
  const [investor] = await seed(tag, 1);
  const admin = await createAdministrator();
  await logIn(page, javaScriptOn, admin);
  await page.setViewportSize({ width: 320, height: 700 });
  await visit(page, `/financing?q=${tag}`, javaScriptOn);
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
  // Every control of the card within the width: nothing to scroll sideways for.
  const card = page.locator(".investor-table tbody tr").first();
  for (const control of await card.locator("a, button, select").all()) {
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(320);
  }
  await expectNoAxeViolations(page, "the table as cards at 320 px");

  await page.getByRole("link", { name: `${tag} Person 0` }).click();
  await expect(page).toHaveURL(new RegExp(`/financing/investors/${investor.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: `${tag} Person 0` })).toBeVisible();
  await expect(page.getByText("Not since records began")).toBeVisible();
  // No second factor, so no button to reset one.
  await expect(page.getByText(/The investor has no second factor/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Reset the second factor" })).toHaveCount(0);
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, "the investor's page at 320 px");

  // No reason: refused, nothing changed.
  await page.getByLabel("Full name", { exact: true }).fill(`${tag} Corrected`);
  await page.getByRole("button", { name: "Save the correction" }).click();
  await expect(page.getByText("Give the reason for the correction.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: `${tag} Person 0` })).toBeVisible();

  await page.getByLabel("Reason for the correction").fill("Misspelt on the phone");
  await page.getByRole("button", { name: "Save the correction" }).click();
  await expect(page.getByText("The name and address were corrected").first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: `${tag} Corrected` })).toBeVisible();
  const mail = await waitForMail(investor.email, /name and address were corrected/i);
  expect(mail.text).toContain(`${tag} Corrected`);
  // The NDA's steps: the details stay as given (before the trail, for a seeded row), the correction a line beneath.
  const nda = page.getByRole("table", { name: /The NDA's steps/ });
  await expect(nda.getByRole("row", { name: /^Name and address given/ })).toContainText("Before records began");
  const correction = nda.getByRole("row", { name: /^Name and address corrected/ });
  await expect(correction).toContainText(admin.email);
  await expect(nda.getByRole("row")).toHaveCount(5);
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, "the investor's page after a correction");
});

test("an NDA signed outside the portal: marked completed by hand with its reason and signed copy, at 375 px", async ({
  page,
  javaScriptOn,
}) => {
  const tag = `outside${randomBytes(3).toString("hex")}`;
  const [investor] = await seed(tag, 1);
  const admin = await createAdministrator();
  await logIn(page, javaScriptOn, admin);
  await page.setViewportSize({ width: 375, height: 800 });
  await visit(page, `/financing/investors/${investor.id}`, javaScriptOn);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Mark the NDA completed" }) });
  const reason = form.getByLabel("Reason", { exact: true });
  const file = form.getByLabel("The signed copy (PDF, optional)");
  const submit = form.getByRole("button", { name: "Mark the NDA completed" });

  // No reason: refused, and the NDA stays not completed.
  await submit.click();
  await expect(page.getByText("Give the reason for marking the NDA completed by hand.")).toBeVisible();
  // A file named like a PDF that is not one: refused, the reason kept for the next try.
  await reason.fill("Signed on paper at the roadshow");
  await file.setInputFiles({ name: "scan.pdf", mimeType: "application/pdf", buffer: Buffer.from("not a pdf") });
  await submit.click();
  await expect(page.getByText("The signed copy must be a PDF file (or leave it out).")).toBeVisible();
  await expect(reason).toHaveValue("Signed on paper at the roadshow");
  await expect(page.getByText("Signed outside the portal", { exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page, "the hand-completion form refused at 375 px");

  const pdf = await PDFDocument.create();
  pdf.addPage();
  const copy = Buffer.from(await pdf.save());
  await file.setInputFiles({ name: "scan.pdf", mimeType: "application/pdf", buffer: copy });
  await submit.click();
  await expect(page.getByText("NDA Sign state changed: Recorded as signed outside the portal.").first()).toBeVisible();
  const record = page.locator("section.investor-page__nda-record");
  await expect(record.getByText("Signed outside the portal", { exact: true })).toBeVisible();
  await expect(record.getByText(`Marked completed by hand by ${admin.email}`)).toBeVisible();
  await expect(record.getByText("Signed on paper at the roadshow")).toBeVisible();
  // Completed now: the form gives way to the flag, which can be set back.
  await expect(submit).toHaveCount(0);
  await expect(page.getByLabel("NDA completed", { exact: true })).toHaveValue("yes");
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, "the NDA record of an NDA signed outside the portal at 375 px");

  const link = record.getByRole("link", { name: "Download the signed copy attached" });
  const download = await page.request.get((await link.getAttribute("href"))!);
  expect(download.status()).toBe(200);
  expect(Buffer.from(await download.body()).equals(copy)).toBe(true);
});

test("after a deletion the table lands on the next row", async ({ page, javaScriptOn }) => {
  const tag = `next${randomBytes(3).toString("hex")}`;
  const investors = await seed(tag, 3);
  // Newest first: the last seeded is the first row, and the one before it comes next.
  const [, second, first] = investors;
  await logIn(page, javaScriptOn, await createAdministrator());
  await visit(page, `/financing?q=${tag}`, javaScriptOn);
  if (javaScriptOn) {
    let question = "";
    page.once("dialog", (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await page.getByRole("button", { name: `Delete ${first.email}` }).click();
    await expect(page.getByText("2 investors")).toBeVisible();
    expect(question).toBe(`Do you want to delete this entry?\n\n${tag} Person 2 (${first.email})`);
    await expect(page.getByRole("link", { name: `${tag} Person 1` })).toBeFocused();
  } else {
    await page.getByRole("link", { name: `Delete ${first.email}` }).click();
    await expect(page.getByText("Do you want to delete this entry?")).toBeVisible();
    await expect(page.getByText(`${tag} Person 2`)).toBeVisible();
    await page.getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(new RegExp(`#investor-${second.id}$`));
    await expect(page.getByText("2 investors")).toBeVisible();
  }
});

test("an investor who lost their only factor signs in again after an administrator's reset", async ({
  page,
  browser,
  javaScriptOn,
}) => {
  const investor: TestAccount = await createVerifiedAccount(page, javaScriptOn, "lost-phone");
  // Off the verification page at once: its countdown (a refresh without JavaScript) would otherwise go to the
  // login page in the middle of a later navigation.
  await page.goto("about:blank");
  await withDatabase(E2E_DATABASE, (db) => enrolTotp(db, investor.email));
  const { id } = await withDatabase(E2E_DATABASE, (db) =>
    db.selectFrom("users").select("id").where("email", "=", investor.email).executeTakeFirstOrThrow(),
  );

  const admin = await createAdministrator();
  const adminContext = await browser.newContext({ javaScriptEnabled: javaScriptOn });
  const adminPage = await adminContext.newPage();
  try {
    await logIn(adminPage, javaScriptOn, admin);
    // Long enough ago that the change asks for "Confirm it's you" again.
    await withDatabase(E2E_DATABASE, (db) => expireReauthentication(db, admin.email));
    await visit(adminPage, `/financing/investors/${id}`, javaScriptOn);
    await expect(adminPage.getByText("Authenticator app")).toBeVisible();
    await adminPage.getByRole("button", { name: "Reset the second factor" }).click();
    await expect(adminPage.getByText(/Confirm it's you first/)).toBeVisible();

    await adminPage.getByRole("link", { name: "Confirm it's you" }).first().click();
    await expect(adminPage).toHaveURL(/\/financing\/confirm\?returnTo=/);
    await adminPage.getByLabel("Password", { exact: true }).fill(admin.password);
    await adminPage.getByLabel(/Code from your authenticator app/).fill(await unusedTotpCode(admin.totpSecret!));
    await adminPage.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(adminPage).toHaveURL(new RegExp(`/financing/investors/${id}$`));
    await adminPage.getByRole("button", { name: "Reset the second factor" }).click();
    await expect(adminPage.getByText(/The second factor was reset/).first()).toBeVisible();
    await expect(adminPage.getByText("Authenticator app")).toHaveCount(0);
    await expect(adminPage.getByRole("button", { name: "Reset the second factor" })).toHaveCount(0);
  } finally {
    await adminContext.close();
  }

  const mail = await waitForMail(investor.email, /sign-in security was changed/i);
  expect(mail.text).toContain("reset your second factor");
  // The password alone now lets them in; a new factor can be set up on the security page.
  await page.context().clearCookies();
  await logIn(page, javaScriptOn, investor);
  await visit(page, "/financing/security", javaScriptOn);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  const rows = await withDatabase(E2E_DATABASE, (db) =>
    db
      .selectFrom("audit_events")
      .select(["action", "actor_email"])
      .where("target_id", "=", id)
      .where("action", "=", "investor.factor_reset")
      .execute(),
  );
  expect(rows).toEqual([{ action: "investor.factor_reset", actor_email: admin.email }]);
});
