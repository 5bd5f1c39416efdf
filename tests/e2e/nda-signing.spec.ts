/**
 * The NDA signed in the portal (issue 52), in the browser with JavaScript on and off, at 375 px, axe on each
 * screen: an investor with a long accented name and a four-line address finds their copy offered at once,
 * reviews it, is stopped without the consent's box and refused for a typed name that is not theirs (nothing
 * stored, no consent either), then consents to electronic records and signs in one post, with the name
 * typed in capitals without accents and their password; an administrator countersigns behind "Confirm
 * it's you"; the investor reaches the materials and downloads what they signed from their account.
 * Screenshots at 375 and 1280 px of the long name and address are kept in the test's output folder. It runs
 * in the `nda-js-on` / `nda-js-off` projects, after the others (playwright.config.ts): alone, `--no-deps`.
 */
import { createHash } from "node:crypto";
import type { Page } from "@playwright/test";
import argon2 from "argon2";
import { expireReauthentication, insertUsers, withDatabase } from "../support/outside-database";
import { unusedTotpCode } from "../support/totp";
import { createAdministrator, logIn, newAccount, passwordField } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { seedNdaTemplate } from "./support/nda-template";
import { E2E_DATABASE } from "./support/server";

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 900 };
test.use({ viewport: PHONE });

/** 120 characters, accents in every word but the short ones. */
const FULL_NAME =
  "María-José Éléonore Núñez de la Peña y Ångström-Çelik Ólafsdóttir Dvořák Šimková Wiśniewska Ní Súilleabháin Gómez Ibáñez";
const ADDRESS_LINES = [
  "Résidence Les Érables, Bâtiment C, Appartement 1204",
  "Avenue de l'Hôtel-de-Ville 1234, Quartier Saint-Étienne",
  "CH-1204 Genève",
  "Switzerland",
];

/** The name as someone types it without accents or the shift key: capitals, accents gone, spaces doubled. */
const TYPED_NAME = ` ${FULL_NAME.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase().replaceAll(" ", "  ")} `;

async function fitsAndPasses(page: Page, where: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${where} scrolls sideways`).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, where);
}

/** A full-page screenshot at 375 and at 1280 px, for a person to look at; the page is left at 375 px. */
async function screenshots(page: Page, name: string) {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${viewport.width} px scrolls sideways`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath(`${name}-${viewport.width}.png`), fullPage: true });
  }
  await page.setViewportSize(PHONE);
}

async function consentsOf(email: string) {
  const rows = await withDatabase(E2E_DATABASE, (db) =>
    db.selectFrom("nda_consents").select("id").where("email", "=", email).execute(),
  );
  return rows.length;
}

function signatureOf(email: string) {
  return withDatabase(E2E_DATABASE, (db) =>
    db
      .selectFrom("nda_signatures")
      .select(["signed_sha256", "completed_sha256", "typed_name"])
      .where("email", "=", email)
      .executeTakeFirst(),
  );
}

test("an investor reviews, consents and signs in one form; an administrator countersigns; the investor reads the materials and keeps the signed copy", async ({
  page,
  browser,
  javaScriptOn,
}) => {
  test.setTimeout(240_000);
  await seedNdaTemplate(E2E_DATABASE);
  const investor = newAccount("nda-signing");
  await withDatabase(E2E_DATABASE, async (db) =>
    insertUsers(db, [
      {
        email: investor.email,
        fullName: FULL_NAME,
        address: ADDRESS_LINES.join(" "),
        addressLines: ADDRESS_LINES.join("\n"),
        // Any argon2id hash verifies at the login; the app's own parameters are its business.
        passwordHash: await argon2.hash(investor.password, { type: argon2.argon2id }),
      },
    ]),
  );
  await logIn(page, javaScriptOn, investor);

  // The copy is offered as soon as the details are given: the NDA is sent, and the details stay correctable
  // until the signature (a correction would render a new copy).
  const section = page.getByRole("region", { name: "Your non-disclosure agreement" });
  await expect(page.getByText("NDA is not completed yet.")).toBeVisible();
  await expect(page.getByText("Correct my details")).toBeVisible();

  // The copy to review: in the page (the browser's viewer) and as a link to the PDF, which is theirs.
  await expect(section.getByRole("heading", { name: "Review the agreement" })).toBeVisible();
  const pdfLink = section.getByRole("link", { name: "Open the agreement (PDF)" }).last();
  await expect(pdfLink).toHaveAttribute("href", "/financing/nda.pdf");
  if (javaScriptOn)
    await expect(section.locator("object[data='/financing/nda.pdf']")).toHaveAttribute("type", "application/pdf");
  const copy = await page.request.get((await pdfLink.getAttribute("href"))!);
  expect(copy.headers()["content-type"]).toBe("application/pdf");
  const copyBytes = await copy.body();
  expect(copyBytes.subarray(0, 5).toString()).toBe("%PDF-");
  const copySha256 = createHash("sha256").update(copyBytes).digest("hex");
  await expect(section.locator("input[name=copySha256]")).toHaveValue(copySha256);
  await expect(section.getByText(`As it appears on the agreement: ${FULL_NAME}`)).toBeVisible();

  // Consent to electronic records on the same form, the disclosure in full and a box of its own.
  await expect(section.getByRole("heading", { name: "Consent to electronic records and signatures" })).toBeVisible();
  await expect(section.getByText(/^Paper copy\. You may ask for a paper copy/)).toBeVisible();
  const consentBox = section.getByLabel(/agree to receive and sign the non-disclosure agreement electronically/);
  await fitsAndPasses(page, "the copy to review and the signature form with the consent");
  await screenshots(page, "review-and-sign");

  const sign = async (typedName: string, { consent = true } = {}) => {
    await section.getByLabel("Type your full name").fill(typedName);
    await section.getByLabel(/I intend to sign this agreement electronically/).check();
    if (consent) await consentBox.check();
    else await consentBox.uncheck();
    await passwordField(page).fill(investor.password);
    await section.getByRole("button", { name: "Sign the agreement" }).click();
  };
  // Without the consent's box: the browser's own check stops it with JavaScript and without alike (the box
  // is required), and the server's 400 stands behind it (tests/integration/nda-status-page.test.ts).
  await sign(TYPED_NAME, { consent: false });
  expect(await consentBox.evaluate((box: HTMLInputElement) => box.validity.valueMissing)).toBe(true);
  expect(await signatureOf(investor.email)).toBeUndefined();
  expect(await consentsOf(investor.email)).toBe(0);

  // A name that is not theirs: a clear message, and nothing signed, no consent recorded either.
  await sign("María Núñez");
  await expect(section.getByText("Type your full name exactly as it appears on the agreement.")).toBeVisible();
  expect(await signatureOf(investor.email)).toBeUndefined();
  expect(await consentsOf(investor.email)).toBe(0);
  await fitsAndPasses(page, "the signature refused for a name that does not match");

  // Their name in capitals without accents, spaces doubled: signed, waiting for the firm.
  await sign(TYPED_NAME);
  await expect(
    page.getByText("Signed. The firm countersigns next; you will receive the signed agreement by e-mail.").first(),
  ).toBeVisible();
  await expect(section.getByText(/^You signed the agreement\. The firm countersigns it next/)).toBeVisible();
  expect(await consentsOf(investor.email)).toBe(1);
  await expect(page.getByText("Correct my details")).toHaveCount(0);
  const signed = await signatureOf(investor.email);
  expect(signed).toMatchObject({ typed_name: TYPED_NAME.trim().replace(/\s+/g, " "), completed_sha256: null });
  await fitsAndPasses(page, "the signature waiting for the countersignature");
  await screenshots(page, "signed");

  // The administrator countersigns, in a browser of their own, only once they confirmed it's them.
  const admin = await createAdministrator();
  const adminContext = await browser.newContext({ javaScriptEnabled: javaScriptOn, viewport: PHONE });
  const adminPage = await adminContext.newPage();
  try {
    await logIn(adminPage, javaScriptOn, admin);
    await withDatabase(E2E_DATABASE, (db) => expireReauthentication(db, admin.email));
    await visit(adminPage, "/financing/nda", javaScriptOn);
    const waiting = adminPage.getByRole("listitem").filter({ hasText: investor.email });
    await waiting.getByRole("button", { name: "Review and countersign" }).click();
    await expect(adminPage.getByText(/Confirm it's you first/).first()).toBeVisible();
    expect((await signatureOf(investor.email))?.completed_sha256).toBeNull();
    await fitsAndPasses(adminPage, "the NDA page before the confirmation");

    await adminPage.getByRole("link", { name: "Confirm it's you" }).first().click();
    await expect(adminPage).toHaveURL(/\/financing\/confirm\?returnTo=/);
    await passwordField(adminPage).fill(admin.password);
    await adminPage.getByLabel(/Code from your authenticator app/).fill(await unusedTotpCode(admin.totpSecret!));
    await adminPage.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(adminPage).toHaveURL(/\/financing\/nda$/);
    await fitsAndPasses(adminPage, "the NDA page with the investor waiting");
    await screenshots(adminPage, "countersign");
    await waiting.getByRole("button", { name: "Review and countersign" }).click();
    await expect(
      adminPage.getByText(`Countersigned: ${investor.email}'s NDA is complete and both sides were e-mailed.`).first(),
    ).toBeVisible();
    await expect(waiting).toHaveCount(0);
  } finally {
    await adminContext.close();
  }

  // The materials open, and the account page keeps what they signed: the fully signed file.
  await visit(page, "/financing", javaScriptOn);
  await expect(page).toHaveURL(/\/financing\/materials$/);
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(`^Welcome ${FULL_NAME}\\.`) })).toBeVisible();
  await fitsAndPasses(page, "the materials after the countersignature");
  await screenshots(page, "materials");
  await visit(page, "/financing/security", javaScriptOn);
  const download = page.getByRole("link", { name: "Download what you signed (PDF)" });
  const file = await page.request.get((await download.getAttribute("href"))!);
  expect(file.headers()["content-type"]).toBe("application/pdf");
  const completed = await signatureOf(investor.email);
  expect(completed?.completed_sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(
    createHash("sha256")
      .update(await file.body())
      .digest("hex"),
  ).toBe(completed?.completed_sha256);
  await fitsAndPasses(page, "the account page with the signed NDA");
});
