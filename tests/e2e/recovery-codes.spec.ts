/**
 * Recovery codes for every factor and the code step as phones use it (issue 30), with JavaScript on
 * and off: the set-up's otpauth link and focused number field; a new set copied (with the script),
 * downloaded as .txt, printed, and "I have saved these codes" before "Continue" (the server refuses
 * without it); the code step's field and its "Use a recovery code instead"; the sign-in's offer of a
 * first set; and, in Chromium's virtual authenticator, the passkey-only investor who loses the passkey
 * and signs in with a recovery code. Axe on each new page.
 */
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { enrolTotp, withDatabase } from "../support/outside-database";
import { unusedTotpCode } from "../support/totp";
import { createVerifiedAccount, logIn, passwordField, submitLogin } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { E2E_DATABASE } from "./support/server";

const CODE_SHAPE = /^[0-9a-z]{5}-[0-9a-z]{5}$/;

async function logOut(page: Page) {
  await page.getByRole("button", { name: "LOG OUT" }).click();
  await expect(page).toHaveURL(/\/financing\/login$/);
}

/** The set the page shows. */
async function shownCodes(page: Page): Promise<string[]> {
  await expect(page.getByRole("heading", { name: "Your recovery codes", exact: true })).toBeVisible();
  const codes = await page.getByRole("list", { name: "Recovery codes" }).locator("code").allTextContents();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(CODE_SHAPE);
  return codes;
}

/** "I have saved these codes", then "Continue". */
async function saveAndContinue(page: Page) {
  await page.getByLabel("I have saved these codes").check();
  await page.getByRole("button", { name: "Continue" }).click();
}

/** A code field made for phones: the cursor in it, and the keyboard its kind of code needs. */
async function expectCodeField(page: Page, label: string, kind: "app" | "recovery") {
  const field = page.getByLabel(label, { exact: true });
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute("inputmode", kind === "app" ? "numeric" : "text");
  await expect(field).toHaveAttribute("autocomplete", kind === "app" ? "one-time-code" : "off");
}

test("the app's set-up links to the app; the codes are downloaded, printed and saved before moving on; the code step offers a recovery code", async ({
  page,
  javaScriptOn,
}) => {
  test.slow();
  const investor = await createVerifiedAccount(page, javaScriptOn, "codes-page");
  await logIn(page, javaScriptOn, investor);
  await visit(page, "/financing/security/authenticator", javaScriptOn);
  const openInApp = page.getByRole("link", { name: "Open in your authenticator app" });
  await expect(openInApp).toHaveAttribute("href", /^otpauth:\/\/totp\/.+\?.*secret=[A-Z2-7]{32}/);
  await expectCodeField(page, "Code from the app", "app");
  const secret = ((await page.locator(".totp-secret code").textContent()) ?? "").replace(/\s/g, "");
  const first = await unusedTotpCode(secret);
  // Pasted as some apps show it.
  await page.getByLabel("Code from the app").fill(`${first.slice(0, 3)} ${first.slice(3)}`);
  await page.getByRole("button", { name: "Turn on" }).click();

  const codes = await shownCodes(page);
  await expectNoAxeViolations(page, "a new set of recovery codes");
  // On the narrowest phone the set and its buttons fit, with no sideways scroll.
  await page.setViewportSize({ width: 320, height: 700 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 1280, height: 900 });
  if (javaScriptOn) {
    await expect(page.getByRole("button", { name: "Copy the codes" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  } else {
    await expect(page.getByRole("button", { name: "Copy the codes" })).toHaveCount(0);
    await expect(page.getByText("use your browser's Print command")).toBeVisible();
  }
  // Printed, the page is its codes.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("heading", { name: "Your recovery codes", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue" })).toBeHidden();
  await page.emulateMedia({ media: "screen" });

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download as .txt" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("recovery-codes.txt");
  const text = fs.readFileSync((await download.path())!, "utf8");
  expect(text.split("\n").filter((line) => CODE_SHAPE.test(line))).toEqual(codes);
  // Whose codes they are and when they were made, for whoever finds the file later.
  expect(text).toContain(`for ${investor.email}`);
  expect(text).toMatch(/made on \w+ \d{1,2}, \d{4} at \d{1,2}:\d\d:\d\d [AP]M UTC/);
  // The page is still there, with the same codes.
  expect(await shownCodes(page)).toEqual(codes);

  // "Continue" without the box: the browser asks for it; past the browser, the server refuses and shows the codes again.
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Your recovery codes", exact: true })).toBeVisible();
  await page.getByLabel("I have saved these codes").evaluate((box) => box.removeAttribute("required"));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "once they are somewhere safe" })).toBeVisible();
  expect(await shownCodes(page)).toEqual(codes);
  await expectNoAxeViolations(page, "the codes shown again after a refused Continue");
  await saveAndContinue(page);
  // Set up from the security settings, so back to them.
  await expect(page).toHaveURL(/\/financing\/security$/);
  await expect(page.getByRole("heading", { name: "Security", level: 1 })).toBeVisible();
  await logOut(page);

  // The code step: the app's code first, a recovery code as a choice of its own.
  await submitLogin(page, javaScriptOn, investor);
  await expect(page).toHaveURL(/\/financing\/login\/code$/);
  await expectCodeField(page, "Code", "app");
  await page.getByRole("link", { name: "Use a recovery code instead" }).click();
  await expect(page).toHaveURL(/\/financing\/login\/code\?recovery=1$/);
  await expectCodeField(page, "Recovery code", "recovery");
  await expectNoAxeViolations(page, "the code step, asking for a recovery code");
  await page.getByLabel("Recovery code", { exact: true }).fill("not a code");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("A code is 6 digits, or a recovery code").first()).toBeVisible();
  await expect(page.getByLabel("Recovery code", { exact: true })).toBeVisible();
  await page.getByLabel("Recovery code", { exact: true }).fill(codes[0].replace("-", " ").toUpperCase());
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/financing$/);
  await expect(page.getByRole("button", { name: "LOG OUT" })).toBeVisible();
});

test("the .txt file is an attachment of the codes sent, never stored, and only for a signed-in account", async ({
  page,
  javaScriptOn,
}) => {
  const codes = ["abcde-fghjk", "mnpqr-stvwx"];
  const signedOut = await page.request.post("/financing/security/recovery-codes.txt", {
    form: { codes: codes.join(" ") },
    maxRedirects: 0,
  });
  expect(signedOut.status()).toBe(302);

  const investor = await createVerifiedAccount(page, javaScriptOn, "codes-file");
  await logIn(page, javaScriptOn, investor);
  const file = await page.request.post("/financing/security/recovery-codes.txt", { form: { codes: codes.join(" ") } });
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  expect(file.headers()["content-disposition"]).toBe('attachment; filename="recovery-codes.txt"');
  expect(file.headers()["cache-control"]).toBe("private, no-store");
  expect((await file.text()).trimEnd().split("\n").slice(-2)).toEqual(codes);
  const refused = await page.request.post("/financing/security/recovery-codes.txt", { form: { codes: "<b>hi</b>" } });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toMatch(/not recovery codes/);
});

test("an account with a passkey and no codes is offered a set at its next sign-in, before the portal", async ({
  page,
  javaScriptOn,
}) => {
  test.slow();
  const investor = await createVerifiedAccount(page, javaScriptOn, "codes-offer");
  // A passkey from before codes came with every factor, and an app to pass the code step with here.
  const secret = await withDatabase(E2E_DATABASE, async (db) => {
    const user = await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", investor.email)
      .executeTakeFirstOrThrow();
    await db
      .insertInto("passkeys")
      .values({
        id: `old-passkey-${user.id}`,
        user_id: user.id,
        public_key: Buffer.from([1, 2, 3]),
        counter: 0,
        transports: "[]",
        created_at: Date.now(),
        last_used_at: null,
      })
      .execute();
    return enrolTotp(db, investor.email);
  });
  await submitLogin(page, javaScriptOn, { ...investor, totpSecret: secret });
  await expect(page).toHaveURL(/\/financing\/security\/recovery-codes$/);
  await expect(page.getByRole("heading", { name: "Save your recovery codes", level: 1 })).toBeVisible();
  await expectNoAxeViolations(page, "the sign-in's offer of recovery codes");
  await page.getByRole("button", { name: "Make my recovery codes" }).click();
  await shownCodes(page);
  await saveAndContinue(page);
  await expect(page).toHaveURL(/\/financing$/);

  // Made once: the page now only says so.
  await visit(page, "/financing/security/recovery-codes", javaScriptOn);
  await expect(page.getByText("Your account already has recovery codes.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Make my recovery codes" })).toHaveCount(0);
});

test("a passkey-only investor saves the codes that came with the passkey, loses the passkey, and signs in with a recovery code", async ({
  page,
  javaScriptOn,
}) => {
  test.skip(!javaScriptOn, "WebAuthn is the browser's script");
  test.slow();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  const investor = await createVerifiedAccount(page, javaScriptOn, "passkey-only");
  await logIn(page, javaScriptOn, investor);
  await visit(page, "/financing/security", javaScriptOn);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  const codes = await shownCodes(page);
  await expectNoAxeViolations(page, "the codes that came with the first passkey");
  await saveAndContinue(page);
  await expect(page).toHaveURL(/\/financing\/security$/);
  await expect(page.getByText("10 of 10 recovery codes left.")).toBeVisible();
  await logOut(page);

  // The phone is lost: the passkey with it.
  await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
  await visit(page, "/financing/login", javaScriptOn);
  await page.getByLabel("Email Address").fill(investor.email);
  await passwordField(page).fill(investor.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/financing\/login\/code$/);
  // No app: the step asks for a recovery code (or the passkey), with no choice to make.
  await expectCodeField(page, "Recovery code", "recovery");
  await expect(page.getByRole("link", { name: "Use a recovery code instead" })).toHaveCount(0);
  await page.getByLabel("Recovery code", { exact: true }).fill(codes[3]);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/financing$/);
  await expect(page.getByRole("button", { name: "LOG OUT" })).toBeVisible();
});
