import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { databaseEnv, enrolTotp, withDatabase } from "../../support/outside-database";
import { TEST_KEYS } from "../../support/test-keys";
import { unusedTotpCode } from "../../support/totp";
import { expect, visit } from "./fixtures";
import { linkIn, waitForMail } from "./mail";
import { E2E_DATABASE } from "./server";

/**
 * Accounts for browser tests: each test makes its own, with an address no
 * other test (in either project: they share one server and database) uses.
 */
export type TestAccount = {
  email: string;
  password: string;
  /** The account's authenticator app (base32), when it has one: the login then asks for its code. */
  totpSecret?: string;
};

/** Long enough for the policy and on no common-password list. */
export const TEST_PASSWORD = "Correct-Horse-Battery-Staple-42";

/** The subjects of the account e-mails (sent by app/models/account/account-mail.server.ts). */
export const MAIL_SUBJECTS = {
  verify: /verify your email/i,
  reset: /reset your password/i,
} as const;

export function uniqueEmail(label = "investor") {
  return `${label}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@example.com`;
}

export function newAccount(label?: string): TestAccount {
  return { email: uniqueEmail(label), password: TEST_PASSWORD };
}

/** The password field, not "Confirm Password" (labels are matched exactly). */
export const passwordField = (page: Page) => page.getByLabel("Password", { exact: true });

export async function signUp(page: Page, javaScriptOn: boolean, account: TestAccount) {
  await visit(page, "/financing/signup", javaScriptOn);
  await page.getByLabel("Email Address").fill(account.email);
  await passwordField(page).fill(account.password);
  await page.getByLabel("Confirm Password").fill(account.password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  // Where the link went stays on the page: the notice is not the only sign to check the inbox.
  await expect(page).toHaveURL(/\/financing\/verify-email$/);
  await expect(page.getByText(`We sent a link to ${account.email}`)).toBeVisible();
}

/** The verification link of the latest verification e-mail sent to `email`. */
export async function verificationLink(email: string) {
  return linkIn(await waitForMail(email, MAIL_SUBJECTS.verify), /\/auth\/verify\//);
}

export async function resetLink(email: string) {
  return linkIn(await waitForMail(email, MAIL_SUBJECTS.reset), /\/financing\/resetpassword\//);
}

/**
 * A reset link that the page accepts, for tests of the reset form itself: an account registered and
 * verified through the API, whose reset e-mail was asked for. The path, without the origin.
 */
export async function freshResetPath(request: APIRequestContext) {
  const account = newAccount("reset-form");
  expect((await request.post("/api/auth/register", { data: account })).status()).toBe(201);
  const verify = new URL(await verificationLink(account.email));
  expect((await request.get(`/api${verify.pathname}`)).status()).toBe(200);
  expect((await request.get(`/api/auth/forgot-password/${encodeURIComponent(account.email)}`)).status()).toBe(200);
  return new URL(await resetLink(account.email)).pathname;
}

/** Signs up through the page and follows the e-mailed link: a verified, logged-out account. */
export async function createVerifiedAccount(page: Page, javaScriptOn: boolean, label?: string) {
  const account = newAccount(label);
  await signUp(page, javaScriptOn, account);
  await visit(page, await verificationLink(account.email), javaScriptOn);
  await expect(page.getByText("Your email address has been successfully verified.")).toBeVisible();
  return account;
}

/**
 * Fills and sends the login form, and the code step after it for an account with an authenticator
 * app; the caller asserts where it lands.
 */
export async function submitLogin(page: Page, javaScriptOn: boolean, account: TestAccount) {
  await visit(page, "/financing/login", javaScriptOn);
  await page.getByLabel("Email Address").fill(account.email);
  await passwordField(page).fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  if (account.totpSecret) await submitCode(page, await unusedTotpCode(account.totpSecret));
}

/** Sends a code on the login's second step. */
export async function submitCode(page: Page, code: string) {
  await expect(page).toHaveURL(/\/financing\/login\/code$/);
  await page.getByLabel("Code", { exact: true }).fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

/** Logs in and waits for the portal. */
export async function logIn(page: Page, javaScriptOn: boolean, account: TestAccount) {
  await submitLogin(page, javaScriptOn, account);
  await expect(page).toHaveURL(/\/financing$/);
  await expect(page.getByRole("button", { name: "LOG OUT" })).toBeVisible();
}

/** A verified account, logged in on `page`: the starting point of the portal's later tests. */
export async function loggedInAccount(page: Page, javaScriptOn: boolean, label?: string) {
  const account = await createVerifiedAccount(page, javaScriptOn, label);
  await logIn(page, javaScriptOn, account);
  return account;
}

/**
 * An administrator of the suite's server, made the way an operator makes one (`npm run create-admin`),
 * with an authenticator app as if set up at the first login (second-factor.spec.ts tests that set-up).
 */
export async function createAdministrator(): Promise<TestAccount> {
  const account = createAdministratorWithoutSecondFactor();
  const totpSecret = await withDatabase(E2E_DATABASE, (db) => enrolTotp(db, account.email));
  return { ...account, totpSecret };
}

/** An administrator just made with `npm run create-admin`: the first login leads to the second factor's set-up. */
export function createAdministratorWithoutSecondFactor(): TestAccount {
  const email = uniqueEmail("admin");
  execFileSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/create-admin.ts", email], {
    env: {
      ...process.env,
      ...databaseEnv(E2E_DATABASE),
      // The suite's server's keys: the script's audit row must chain on under the same AUDIT_KEY.
      ...TEST_KEYS,
      ADMIN_PASSWORD: TEST_PASSWORD,
      NODE_ENV: "development",
    },
    stdio: "pipe",
  });
  return { email, password: TEST_PASSWORD };
}
