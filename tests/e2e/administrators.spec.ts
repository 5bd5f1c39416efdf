/**
 * Administrators managed in the app, in the browser with JavaScript on and off: an invitation
 * followed from its e-mail to a new administrator who must set up an authenticator app before
 * reaching the portal; revoking an invitation, resetting an administrator's second factor and
 * removing one, each only after "Confirm it's you". Axe on each page; nothing scrolls sideways at 320 px.
 */
import type { Browser, Page } from "@playwright/test";
import { expireReauthentication, withDatabase } from "../support/outside-database";
import { unusedTotpCode } from "../support/totp";
import { createAdministrator, logIn, passwordField, TEST_PASSWORD, uniqueEmail } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { linkIn, mailCount, waitForMail } from "./support/mail";
import { E2E_BASE_URL, E2E_DATABASE } from "./support/server";

async function expectNoSidewaysScroll(page: Page, where: string) {
  for (const width of [320, 375]) {
    await page.setViewportSize({ width, height: 740 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${where} at ${width} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The card of one administrator or invitation on the page. */
const card = (page: Page, email: string) => page.locator(".administrators__card", { hasText: email });

/** Ticks the removal's box, then presses Remove. */
async function remove(page: Page, email: string) {
  await card(page, email).getByLabel(`Yes, remove ${email} and delete their account`).check();
  await card(page, email)
    .getByRole("button", { name: `Remove administrator ${email}` })
    .click();
}

async function invite(page: Page, email: string) {
  await page.getByLabel("Email Address").fill(email);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`An invitation was sent to ${email}.`).first()).toBeVisible();
  await expect(card(page, email)).toBeVisible();
}

/** A browser of the invitee's own, with or without JavaScript as the test's project. */
async function inviteeBrowser(browser: Browser, javaScriptOn: boolean) {
  const context = await browser.newContext({ baseURL: E2E_BASE_URL, javaScriptEnabled: javaScriptOn });
  return { context, page: await context.newPage() };
}

test("an invitee follows the e-mailed link, chooses a password, must set up an authenticator app, then reaches the portal", async ({
  page,
  browser,
  javaScriptOn,
}) => {
  test.slow();
  const admin = await createAdministrator();
  await logIn(page, javaScriptOn, admin);
  // Once more, without the sign-in's notice, which (without JavaScript) sits over the top of the page.
  await visit(page, "/financing", javaScriptOn);
  await page.getByRole("link", { name: "Administrators" }).click();
  await expect(page.getByRole("heading", { name: "Administrators", level: 1 })).toBeVisible();
  await expect(card(page, admin.email)).toContainText("the server's create-admin command");
  await expect(card(page, admin.email)).toContainText("authenticator app");
  await expectNoAxeViolations(page, "the administrators page");
  await expectNoSidewaysScroll(page, "the administrators page");

  const inviteeEmail = uniqueEmail("invited-admin");
  await invite(page, inviteeEmail);
  await expect(card(page, inviteeEmail)).toContainText(admin.email);
  await expectNoAxeViolations(page, "the administrators page with an invitation");

  const link = linkIn(await waitForMail(inviteeEmail, /invited to administer/), /\/financing\/invitation\//);
  const invitee = await inviteeBrowser(browser, javaScriptOn);
  try {
    await visit(invitee.page, new URL(link).pathname, javaScriptOn);
    await expect(invitee.page.getByRole("heading", { name: "Become an administrator" })).toBeVisible();
    await expect(invitee.page.getByText(inviteeEmail).first()).toBeVisible();
    await expectNoAxeViolations(invitee.page, "the invitation page");
    await expectNoSidewaysScroll(invitee.page, "the invitation page");
    await passwordField(invitee.page).fill(TEST_PASSWORD);
    await invitee.page.getByLabel("Confirm Password").fill(TEST_PASSWORD);
    await invitee.page.getByRole("button", { name: "Create administrator account" }).click();

    await expect(invitee.page).toHaveURL(/\/financing\/security\/authenticator$/);
    await expect(invitee.page.getByText("Administrators must have a second factor.")).toBeVisible();
    await visit(invitee.page, "/financing", javaScriptOn);
    await expect(invitee.page).toHaveURL(/\/financing\/security\/authenticator$/);
    const secret = ((await invitee.page.locator(".totp-secret code").textContent()) ?? "").replace(/\s/g, "");
    await invitee.page.getByLabel("Code from the app").fill(await unusedTotpCode(secret));
    await invitee.page.getByRole("button", { name: "Turn on" }).click();
    await expect(invitee.page.getByRole("heading", { name: "Your recovery codes" })).toBeVisible();
    await invitee.page.getByLabel("I have saved these codes").check();
    await invitee.page.getByRole("button", { name: "Continue" }).click();
    await expect(invitee.page.getByRole("heading", { name: "Investors", level: 1 })).toBeVisible();

    // The link worked once.
    await visit(invitee.page, new URL(link).pathname, javaScriptOn);
    await expect(invitee.page.getByRole("alert")).toContainText("This invitation link no longer works");
  } finally {
    await invitee.context.close();
  }

  await visit(page, "/financing/admins", javaScriptOn);
  await expect(card(page, inviteeEmail)).toContainText(admin.email);
  await expect(card(page, inviteeEmail)).toContainText("authenticator app");
  // The accepted invitation is no longer pending. (Other tests' invitations may be, on the shared server.)
  await expect(page.getByRole("heading", { name: "Pending invitations", level: 2 })).toBeVisible();
  await expect(page.getByRole("button", { name: `Revoke the invitation of ${inviteeEmail}` })).toHaveCount(0);
});

test("revoke, reset and remove each ask to confirm it's you first, then do what they say", async ({
  page,
  javaScriptOn,
}) => {
  test.slow();
  const admin = await createAdministrator();
  const toReset = await createAdministrator();
  const toRemove = await createAdministrator();
  await logIn(page, javaScriptOn, admin);

  // Ten minutes after the login: the changes are closed.
  await withDatabase(E2E_DATABASE, (db) => expireReauthentication(db, admin.email));
  await visit(page, "/financing/admins", javaScriptOn);
  await expect(page.getByText("Changes to someone's access ask you to confirm it's you first.")).toBeVisible();
  await remove(page, toRemove.email);
  await expect(page.getByRole("alert").filter({ hasText: "Confirm it's you first" })).toBeVisible();
  await expect(card(page, toRemove.email)).toBeVisible();
  await expectNoAxeViolations(page, "the administrators page after a refusal");
  expect(mailCount(toRemove.email)).toBe(0);

  await page.getByRole("alert").getByRole("link", { name: "Confirm it's you" }).click();
  await expect(page).toHaveURL(/\/financing\/confirm\?returnTo=%2Ffinancing%2Fadmins$/);
  await passwordField(page).fill(admin.password);
  await page
    .getByLabel("Code from your authenticator app, or a recovery code")
    .fill(await unusedTotpCode(admin.totpSecret!));
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page).toHaveURL(/\/financing\/admins$/);
  await expect(
    page.getByText(
      /^You confirmed it's you, so until \d+:\d\d [AP]M \(UTC\) you can change who gets in .+ a session left open cannot make them\.$/,
    ),
  ).toBeVisible();
  if (javaScriptOn) await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");

  const inviteeEmail = uniqueEmail("revoked-admin");
  await invite(page, inviteeEmail);
  await card(page, inviteeEmail)
    .getByRole("button", { name: `Revoke the invitation of ${inviteeEmail}` })
    .click();
  await expect(page.getByText(`The invitation of ${inviteeEmail} was revoked.`).first()).toBeVisible();
  await expect(card(page, inviteeEmail)).toHaveCount(0);
  await waitForMail(inviteeEmail, "Your invitation was withdrawn");

  await card(page, toReset.email)
    .getByRole("button", { name: `Reset the second factor of ${toReset.email}` })
    .click();
  await expect(page.getByText(`The second factor of ${toReset.email} was reset`).first()).toBeVisible();
  await expect(card(page, toReset.email)).toContainText("none yet: set up at next sign-in");
  await waitForMail(toReset.email, "Your second factor was reset");

  await remove(page, toRemove.email);
  await expect(page.getByText(`${toRemove.email} is no longer an administrator`).first()).toBeVisible();
  await expect(card(page, toRemove.email)).toHaveCount(0);
  await waitForMail(toRemove.email, "You are no longer an administrator");
  await expectNoAxeViolations(page, "the administrators page after the changes");
});
