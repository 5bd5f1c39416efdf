/**
 * The second factor in the browser, with JavaScript on and off: an administrator's set-up at the
 * first login, an investor's from the security settings, recovery codes, "Confirm it's you" before a
 * change, turning it off, and (in Chromium's virtual authenticator) passkeys, both as the second step
 * and on their own. The attacks a review replayed: a second session of an administrator before the
 * set-up, and an older session and API token after a change of the factor. Axe on each page.
 */
import type { Page } from "@playwright/test";
import { expireReauthentication, withDatabase } from "../support/outside-database";
import { totpCode, unusedTotpCode } from "../support/totp";
import {
  createAdministratorWithoutSecondFactor,
  loggedInAccount,
  passwordField,
  submitCode,
  submitLogin,
  type TestAccount,
} from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { E2E_BASE_URL, E2E_DATABASE } from "./support/server";

async function logOut(page: Page) {
  await page.getByRole("button", { name: "LOG OUT" }).click();
  await expect(page).toHaveURL(/\/financing\/login$/);
}

/** The secret the set-up page shows as text. */
async function shownSecret(page: Page): Promise<string> {
  await expect(page.getByRole("heading", { name: "Set up an authenticator app", level: 1 })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code of the authenticator app's secret" })).toBeVisible();
  const secret = ((await page.locator(".totp-secret code").textContent()) ?? "").replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  return secret;
}

/** On the set-up page: reads the secret shown as text, sends the app's first code, returns the recovery codes. */
async function setUpAuthenticator(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  const secret = await shownSecret(page);
  await page.getByLabel("Code from the app").fill(await unusedTotpCode(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("heading", { name: "Your recovery codes" })).toBeVisible();
  const recoveryCodes = await page.locator(".recovery-codes__list code").allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  return { secret, recoveryCodes };
}

test("an administrator sets up the authenticator app at the first login, reaching nothing before it, then signs in with a code", async ({
  page,
  javaScriptOn,
}) => {
  test.slow();
  const admin = createAdministratorWithoutSecondFactor();
  // Through the API first: no token without a second factor.
  const api = await page.request.post("/api/auth/login", { data: { email: admin.email, password: admin.password } });
  expect(api.status()).toBe(403);
  expect(((await api.json()) as { message: string }).message).toMatch(/set up a second factor on the website first/);

  await submitLogin(page, javaScriptOn, admin);
  await expect(page).toHaveURL(/\/financing\/security\/authenticator$/);
  await expect(page.getByText("Administrators must have a second factor.")).toBeVisible();
  await expectNoAxeViolations(page, "the authenticator's set-up");
  for (const path of ["/financing", "/financing/audit", "/financing/security", "/financing/materials"]) {
    await visit(page, path, javaScriptOn);
    await expect(page, path).toHaveURL(/\/financing\/security\/authenticator$/);
  }

  const { secret } = await setUpAuthenticator(page);
  await expectNoAxeViolations(page, "the recovery codes");
  await page.getByLabel("I have saved these codes").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Investors", level: 1 })).toBeVisible();

  await logOut(page);
  const withApp: TestAccount = { ...admin, totpSecret: secret };
  await visit(page, "/financing/login", javaScriptOn);
  await page.getByLabel("Email Address").fill(admin.email);
  await passwordField(page).fill(admin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/financing\/login\/code$/);
  await expectNoAxeViolations(page, "the code step");
  // A wrong code first: refused with a message, still on the step.
  const right = await unusedTotpCode(secret);
  await submitCode(page, right === "000000" ? "111111" : "000000");
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right." })).toBeVisible();
  await submitCode(page, right);
  await expect(page.getByRole("heading", { name: "Investors", level: 1 })).toBeVisible();

  // And through the API, with a code.
  const apiWithCode = await page.request.post("/api/auth/login", {
    data: { email: withApp.email, password: withApp.password, code: await unusedTotpCode(secret) },
  });
  expect(apiWithCode.status()).toBe(200);
});

test("an investor turns the app on in the settings, uses a recovery code once, and turns it off after confirming it is them", async ({
  page,
  javaScriptOn,
}) => {
  test.slow();
  const investor = await loggedInAccount(page, javaScriptOn, "second-factor");
  await visit(page, "/financing/security", javaScriptOn);
  await expect(page.getByRole("heading", { name: "Security", level: 1 })).toBeVisible();
  if (!javaScriptOn) await expect(page.getByText("Adding a passkey needs JavaScript in your browser.")).toBeVisible();
  await expectNoAxeViolations(page, "the security settings");
  await page.getByRole("link", { name: "Set up an authenticator app" }).click();
  const { secret, recoveryCodes } = await setUpAuthenticator(page);
  await page.getByLabel("I have saved these codes").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await logOut(page);

  // A recovery code in place of the app's code: it works once.
  await submitLogin(page, javaScriptOn, investor);
  await submitCode(page, recoveryCodes[0]);
  await expect(page.getByRole("button", { name: "LOG OUT" })).toBeVisible();
  await logOut(page);
  await submitLogin(page, javaScriptOn, investor);
  await submitCode(page, recoveryCodes[0]);
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right." })).toBeVisible();
  await submitCode(page, await unusedTotpCode(secret));
  await expect(page.getByRole("button", { name: "LOG OUT" })).toBeVisible();

  // Ten minutes after the login: the changes ask again who it is, the password and a code.
  await withDatabase(E2E_DATABASE, (db) => expireReauthentication(db, investor.email));
  await visit(page, "/financing/security", javaScriptOn);
  await expect(page.getByText("9 of 10 recovery codes left.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Confirm it's you" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Turn off the second factor" })).toHaveCount(0);
  await expectNoAxeViolations(page, "the security settings before the confirmation");
  const confirm = page.locator("form", { has: page.getByRole("button", { name: "Confirm", exact: true }) });
  await confirm.getByLabel("Password", { exact: true }).fill(investor.password);
  await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  if (javaScriptOn)
    await expect(page.getByText("Enter the 6-digit code from your authenticator app").first()).toBeVisible();
  else await expect(page.getByRole("alert").filter({ hasText: "as well as your password" })).toBeVisible();
  // A recovery code stands in for the app's code here too; a wrong password spends nothing.
  await confirm.getByLabel("Password", { exact: true }).fill("not the password");
  await confirm.getByLabel("Code from your authenticator app, or a recovery code").fill(recoveryCodes[1]);
  await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The password is not right." })).toBeVisible();
  await confirm.getByLabel("Password", { exact: true }).fill(investor.password);
  await confirm.getByLabel("Code from your authenticator app, or a recovery code").fill(recoveryCodes[1]);
  await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page.getByText(/^Confirmed: you can change these settings until /)).toBeVisible();
  await expect(page.getByText("8 of 10 recovery codes left.")).toBeVisible();
  await page.getByRole("button", { name: "Turn off the second factor" }).click();
  await expect(page.getByText("Second factor turned off").first()).toBeVisible();
  await expect(page.getByText("Off.", { exact: true })).toBeVisible();
  // A code from the old secret no longer matters: the login asks for the password only.
  expect(totpCode(secret, Date.now())).toMatch(/^\d{6}$/);
  await logOut(page);
  await submitLogin(page, javaScriptOn, investor);
  await expect(page).toHaveURL(/\/financing$/);
});

test("a passkey is added in the settings, then signs in as the second step and on its own; a replayed answer is refused", async ({
  page,
  javaScriptOn,
  request,
}) => {
  test.skip(
    !javaScriptOn,
    "WebAuthn is the browser's script; the no-JavaScript path is the authenticator app, tested above",
  );
  test.slow();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  // The browser's signed answers, as sent: each is replayed below, and must be refused.
  const answers = new Map<string, string>();
  page.on("request", (sent) => {
    const path = new URL(sent.url()).pathname;
    if (sent.method() === "POST" && ["/financing/security/passkeys", "/financing/login/passkey"].includes(path)) {
      answers.set(path, sent.postData() ?? "");
    }
  });
  const replay = async (context: typeof request, path: string) => {
    const answer = await context.post(path, {
      headers: { "Content-Type": "application/json" },
      data: answers.get(path),
    });
    expect(answer.status(), path).toBe(400);
    expect(((await answer.json()) as { message: string }).message).toMatch(/expired or was already used/);
  };

  const investor = await loggedInAccount(page, javaScriptOn, "passkey");
  await visit(page, "/financing/security", javaScriptOn);
  // Just signed in with the password: the changes are open without asking again.
  await page.getByRole("button", { name: "Add a passkey" }).click();
  // The account's first factor: its recovery codes come with it, shown once before anything else.
  await expect(page.getByRole("heading", { name: "Your recovery codes" })).toBeVisible();
  await page.getByLabel("I have saved these codes").check();
  await page.getByRole("button", { name: "Continue" }).click();
  // Named by the browser and system that made it, until its owner renames it.
  await expect(page.locator(".security-passkey h3")).toHaveText([/^Chrome on \w+/]);
  // The registration's answer sent again, by the same signed-in browser: its challenge is spent.
  await replay(page.request, "/financing/security/passkeys");
  await visit(page, "/financing/security", javaScriptOn);
  await expect(page.locator(".security-passkey")).toHaveCount(1);
  await expectNoAxeViolations(page, "the security settings with a passkey");
  await logOut(page);

  // The passkey is now the account's second factor: after the password, it answers the code step.
  await submitLogin(page, javaScriptOn, investor);
  await expect(page).toHaveURL(/\/financing\/login\/code$/);
  await page.getByRole("button", { name: "Use a passkey instead" }).click();
  await expect(page).toHaveURL(/\/financing$/);
  await expect(page.getByRole("button", { name: "LOG OUT" })).toBeVisible();
  await logOut(page);

  // And on its own, from the login page.
  await visit(page, "/financing/login", javaScriptOn);
  await page.getByRole("button", { name: "Use a passkey", exact: true }).click();
  await expect(page).toHaveURL(/\/financing$/);
  await expect(page.getByRole("button", { name: "LOG OUT" })).toBeVisible();
  // The sign-in's answer sent again from elsewhere (no cookies): refused, no session.
  await replay(request, "/financing/login/passkey");

  // Signed in by the passkey alone, no password was given: a change asks for it, and the passkey proves the rest.
  await visit(page, "/financing/security", javaScriptOn);
  // Its sign-ins are shown as its last use.
  await expect(page.locator(".security-passkey")).not.toContainText("Never");
  await expect(page.getByRole("heading", { name: "Confirm it's you" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Remove" })).toHaveCount(0);
  await passwordField(page).fill(investor.password);
  await page.getByRole("button", { name: "Confirm with a passkey" }).click();
  await expect(page.getByText(/^Confirmed: you can change these settings until /)).toBeVisible();
  await page.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("Passkey removed").first()).toBeVisible();
  await expect(page.getByText("No passkeys yet.")).toBeVisible();
});

test("a second session of an administrator before the set-up never sees the owner's secret, and ends when the owner finishes", async ({
  page,
  browser,
  javaScriptOn,
}) => {
  test.slow();
  // The owner, and someone who has the administrator's password, each in a browser of their own.
  const admin = createAdministratorWithoutSecondFactor();
  await submitLogin(page, javaScriptOn, admin);
  const ownerSecret = await shownSecret(page);
  const intruderContext = await browser.newContext({ baseURL: E2E_BASE_URL, javaScriptEnabled: javaScriptOn });
  const intruder = await intruderContext.newPage();
  try {
    await submitLogin(intruder, javaScriptOn, admin);
    const intruderSecret = await shownSecret(intruder);
    expect(intruderSecret).not.toBe(ownerSecret);
    expect(await intruder.content()).not.toContain(ownerSecret.slice(0, 4) + " " + ownerSecret.slice(4, 8));

    // The owner's secret, were it known, does not confirm in the intruder's session.
    await intruder.getByLabel("Code from the app").fill(await unusedTotpCode(ownerSecret));
    await intruder.getByRole("button", { name: "Turn on" }).click();
    await expect(intruder.getByRole("alert").filter({ hasText: "That code is not right." })).toBeVisible();

    await page.getByLabel("Code from the app").fill(await unusedTotpCode(ownerSecret));
    await page.getByRole("button", { name: "Turn on" }).click();
    await expect(page.getByRole("heading", { name: "Your recovery codes" })).toBeVisible();

    // The intruder's session ended with the set-up.
    await visit(intruder, "/financing/security/authenticator", javaScriptOn);
    await expect(intruder).toHaveURL(/\/financing\/login$/);
  } finally {
    await intruderContext.close();
  }
});

test("a change of the factor ends an older session in another browser and the API token from before it", async ({
  page,
  browser,
  javaScriptOn,
}) => {
  test.slow();
  const investor = await loggedInAccount(page, javaScriptOn, "factor-change");
  const otherContext = await browser.newContext({ baseURL: E2E_BASE_URL, javaScriptEnabled: javaScriptOn });
  const other = await otherContext.newPage();
  try {
    await submitLogin(other, javaScriptOn, investor);
    await expect(other.getByRole("button", { name: "LOG OUT" })).toBeVisible();
    const api = await other.request.post("/api/auth/login", { data: investor });
    expect(api.status()).toBe(200);
    const { accessToken } = (await api.json()) as { accessToken: string };
    // An investor's token is known (403 for an administrator's call) until it is revoked (401).
    const asApi = () =>
      other.request.get("/api/user/get_investors", { headers: { Authorization: `Bearer ${accessToken}` } });
    expect((await asApi()).status()).toBe(403);

    await visit(page, "/financing/security", javaScriptOn);
    await page.getByRole("link", { name: "Set up an authenticator app" }).click();
    await setUpAuthenticator(page);

    await visit(other, "/financing", javaScriptOn);
    await expect(other).toHaveURL(/\/financing\/login$/);
    expect((await asApi()).status()).toBe(401);
    const refreshed = await other.request.post("/api/auth/refresh_token");
    expect(refreshed.status()).toBe(401);
  } finally {
    await otherContext.close();
  }
});
