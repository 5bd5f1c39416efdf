/**
 * The account's own sign-ins in the browser, with JavaScript on and off: where it is signed in (a
 * second browser seen, named and signed out; everywhere else signed out), the password changed while
 * signed in (a wrong current password refused first), and a passkey renamed (bad names refused).
 * Axe on each page, and no sideways scroll at 320 px.
 */
import type { Browser, Page } from "@playwright/test";
import { enrolTotp, withDatabase } from "../support/outside-database";
import {
  logIn,
  loggedInAccount,
  newAccount,
  signUp,
  submitLogin,
  verificationLink,
  type TestAccount,
} from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import { E2E_DATABASE } from "./support/server";

const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:120.0) Gecko/20100101 Firefox/120.0";

/** A second browser (Firefox on Windows, by its User-Agent) signed in to the same account. */
async function secondBrowser(browser: Browser, javaScriptOn: boolean, account: TestAccount) {
  const context = await browser.newContext({
    javaScriptEnabled: javaScriptOn,
    userAgent: FIREFOX_ON_WINDOWS,
    extraHTTPHeaders: { "X-Forwarded-For": "10.250.0.7" },
  });
  const page = await context.newPage();
  await logIn(page, javaScriptOn, account);
  return { page, close: () => context.close() };
}

async function expectNoSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, what).toBeLessThanOrEqual(0);
}

/** The portal's start page, where a signed-out browser is sent to the login page. */
async function expectSignedOut(page: Page, javaScriptOn: boolean) {
  await visit(page, "/financing/security", javaScriptOn);
  await expect(page).toHaveURL(/\/financing\/login$/);
}

test("the sessions page shows each browser, signs one out, then every other", async ({
  page,
  browser,
  javaScriptOn,
}) => {
  test.slow();
  const account = await loggedInAccount(page, javaScriptOn, "sessions");
  const other = await secondBrowser(browser, javaScriptOn, account);
  try {
    await visit(page, "/financing/security", javaScriptOn);
    await page.getByRole("link", { name: "Where you're signed in" }).click();
    await expect(page).toHaveURL(/\/financing\/security\/sessions$/);
    await expect(page.getByRole("heading", { name: "Where you're signed in", level: 1 })).toBeVisible();
    const browsers = page.locator("#sessions-web ~ .signed-in-list > li");
    await expect(browsers).toHaveCount(2);
    await expect(browsers.filter({ hasText: "This browser" })).toHaveCount(1);
    const firefox = browsers.filter({ hasText: "Firefox on Windows" });
    await expect(firefox).toContainText("10.250.0.7");
    await expect(page.getByText("No program has API access now.")).toBeVisible();
    await expectNoAxeViolations(page, "the sessions page");

    await firefox.getByRole("button", { name: /^Sign out Firefox on Windows/ }).click();
    await expect(page.getByText("Signed out that browser")).toBeVisible();
    await expect(browsers).toHaveCount(1);
    await expectSignedOut(other.page, javaScriptOn);

    // Signed in again there, and through the API: "everywhere else" ends both.
    await logIn(other.page, javaScriptOn, account);
    const api = await page.request.post("/api/auth/login", {
      data: { email: account.email, password: account.password },
      headers: { "User-Agent": "reporting-script/2.1" },
    });
    expect(api.status()).toBe(200);
    await visit(page, "/financing/security/sessions", javaScriptOn);
    await expect(page.locator(".signed-in", { hasText: "reporting-script/2.1" })).toBeVisible();
    await page.setViewportSize({ width: 320, height: 740 });
    await expectNoSidewaysScroll(page, "the sessions page at 320 px");
    await expectNoAxeViolations(page, "the sessions page at 320 px");
    await page.getByRole("button", { name: "Sign out everywhere else" }).click();
    await expect(page.getByText("Signed out everywhere else")).toBeVisible();
    await expect(page.getByText("No other browser or program is signed in.")).toBeVisible();
    await expect(page.getByText("No program has API access now.")).toBeVisible();
    await expectSignedOut(other.page, javaScriptOn);
  } finally {
    await other.close();
  }
});

test("the password is changed while signed in: a wrong current one is refused, then this browser stays and the others are signed out", async ({
  page,
  browser,
  javaScriptOn,
}) => {
  test.slow();
  const account = await loggedInAccount(page, javaScriptOn, "password-change");
  const other = await secondBrowser(browser, javaScriptOn, account);
  const newPassword = "A-Whole-New-Passphrase-77";
  try {
    await visit(page, "/financing/security", javaScriptOn);
    await page.getByRole("link", { name: "Change your password" }).click();
    await expect(page.getByRole("heading", { name: "Change your password", level: 1 })).toBeVisible();
    await expectNoAxeViolations(page, "the password's change");

    await page.getByLabel("Current password").fill("not-my-password-at-all");
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm new password").fill(newPassword);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("The password is not right.")).toBeVisible();
    await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page, "the password's change, refused");

    await page.getByLabel("Current password").fill(account.password);
    await page.getByLabel("New password", { exact: true }).fill("short");
    await page.getByLabel("Confirm new password").fill("short");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();

    await page.setViewportSize({ width: 320, height: 740 });
    await expectNoSidewaysScroll(page, "the password's change at 320 px");
    await page.getByLabel("Current password").fill(account.password);
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm new password").fill(newPassword);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page).toHaveURL(/\/financing\/security$/);
    await expect(page.getByText("Password changed.")).toBeVisible();
    await expectSignedOut(other.page, javaScriptOn);
    const mail = await waitForMail(account.email, /your password was changed/i);
    expect(mail.text).toContain("If it was not you");

    // This browser is still signed in; the new password opens the account elsewhere, the old one no more.
    await visit(page, "/financing/security/sessions", javaScriptOn);
    await expect(page.getByText("This browser")).toBeVisible();
    await submitLogin(other.page, javaScriptOn, account);
    await expect(other.page.getByText(/not right|invalid|incorrect/i).first()).toBeVisible();
    await logIn(other.page, javaScriptOn, { ...account, password: newPassword });
  } finally {
    await other.close();
  }
});

test("a passkey shows when it was added and last used, and is renamed; bad names are refused", async ({
  page,
  javaScriptOn,
}) => {
  // An authenticator app (so that the sign-in confirms the changes) and a passkey made before names were kept.
  const account = newAccount("passkey-name");
  await signUp(page, javaScriptOn, account);
  await visit(page, await verificationLink(account.email), javaScriptOn);
  const totpSecret = await withDatabase(E2E_DATABASE, async (db) => {
    const secret = await enrolTotp(db, account.email);
    const { id } = await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", account.email)
      .executeTakeFirstOrThrow();
    await db
      .insertInto("passkeys")
      .values({
        id: `e2e-passkey-${id}`,
        user_id: id,
        public_key: new Uint8Array([1, 2, 3]),
        counter: 0,
        transports: "[]",
        created_at: Date.UTC(2026, 10, 1, 9, 30),
        name: null,
      })
      .execute();
    // The app's set-up made its recovery codes, so the sign-in does not offer a first set.
    await db
      .insertInto("recovery_codes")
      .values({ code_hash: `e2e-code-${id}`, user_id: id, created_at: Date.UTC(2026, 10, 1, 9, 30) })
      .execute();
    return secret;
  });
  await logIn(page, javaScriptOn, { ...account, totpSecret });
  await visit(page, "/financing/security", javaScriptOn);
  const passkey = page.locator(".security-passkey");
  await expect(passkey.getByRole("heading", { name: "Passkey 1", level: 3 })).toBeVisible();
  await expect(passkey).toContainText("November 1, 2026");
  await expect(passkey).toContainText("Never");
  await expectNoAxeViolations(page, "the security page with a passkey");

  const name = passkey.getByLabel("Name");
  for (const [bad, message] of [
    ["   ", "Give the passkey a name."],
    ["x".repeat(65), "A passkey's name can be at most 64 characters."],
    ["Work\u200blaptop", "cannot hold invisible characters"],
  ]) {
    await name.fill(bad);
    await passkey.getByRole("button", { name: "Rename" }).click();
    await expect(passkey.getByText(message)).toBeVisible();
    await expect(passkey.getByRole("heading", { name: "Passkey 1", level: 3 })).toBeVisible();
  }
  await expect(passkey.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page, "a refused passkey name");

  await passkey.getByLabel("Name").fill("Work laptop");
  await passkey.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByText("Passkey renamed")).toBeVisible();
  await expect(passkey.getByRole("heading", { name: "Work laptop", level: 3 })).toBeVisible();
  await page.setViewportSize({ width: 320, height: 740 });
  await expectNoSidewaysScroll(page, "the security page at 320 px");
});
