/**
 * The investor's own details and data, with and without JavaScript, on either engine: the status screens'
 * NDA steps around the specification's sentences, the correction of a typo until the NDA is sent (then the
 * form is gone and a forged POST is refused), and "Download my data" from the security page (the file, its
 * headers and JSON, the e-mail, and the refusal once the confirmation has run out). Axe on every state.
 */
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expireReauthentication, updateUser, withDatabase } from "../support/outside-database";
import { loggedInAccount } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import { E2E_BASE_URL, E2E_CONTACT_EMAIL, E2E_DATABASE } from "./support/server";

const THANK_YOU = "You will receive an email shortly regarding the non-disclosure agreement with further instructions";
const NDA_PENDING = "NDA is not completed yet.";

/** How far anything in the page's main content reaches past the window's right edge (0 when it all fits). */
function overflowOfMain(page: Page) {
  return page.evaluate(() =>
    Math.max(0, ...[...document.querySelectorAll("main *")].map((e) => e.getBoundingClientRect().right - innerWidth)),
  );
}

async function expectFitsPhones(page: Page, what: string) {
  const size = page.viewportSize();
  for (const width of [320, 375]) {
    await page.setViewportSize({ width, height: 740 });
    expect(await overflowOfMain(page), `${what} at ${width}px`).toBeLessThanOrEqual(0.5);
  }
  if (size) await page.setViewportSize(size);
}

const step = (page: Page, name: string) => page.locator(".nda-steps__step", { hasText: name });

test("the status screens show the steps and the details, which can be corrected until the NDA is sent", async ({
  page,
  javaScriptOn,
}) => {
  test.slow();
  const account = await loggedInAccount(page, javaScriptOn, "details");
  const typo = `Jane Reo ${Date.now().toString(36)}`;
  const fullName = typo.replace("Reo", "Roe");
  await page.getByLabel("Full Name").fill(typo);
  await page.getByLabel("Address Line 1").fill("1 Mian Street");
  await page.getByLabel("Address Line 2").fill("Springfield, IL 62701");
  await page.getByRole("button", { name: "Submit" }).click();

  // Details given: the specification's sentence, with the steps above it and the details below.
  await expect(page.getByText(THANK_YOU)).toBeVisible();
  await expect(step(page, "Details given")).toContainText(/Done on \w+ \d+, \d{4}/);
  await expect(step(page, "NDA sent")).toContainText("Not yet");
  await expect(step(page, "NDA signed")).toContainText("Not yet");
  await expect(step(page, "NDA sent")).toHaveAttribute("aria-current", "step");
  const details = page.locator(".my-details__facts");
  await expect(details).toContainText(typo);
  // The lines apart, as they were typed.
  await expect(details.locator(".address-lines__line")).toHaveText(["1 Mian Street", "Springfield, IL 62701"]);
  await expectNoAxeViolations(page, "the details given, with the steps");
  await expectFitsPhones(page, "the details given");

  // The correction form opens from its summary (no script needed), prefilled with what is stored.
  await page.getByText("Correct my details").click();
  const nameField = page.getByRole("textbox", { name: "Full Name" });
  const addressField = page.getByRole("textbox", { name: "Address" });
  await expect(nameField).toHaveValue(typo);
  // The address as stored, its lines joined by spaces: a correction is one line.
  await expect(addressField).toHaveValue("1 Mian Street Springfield, IL 62701");
  await addressField.fill("");
  await page.getByRole("button", { name: "Save my corrected details" }).click();
  await expect(page.getByText("Address cannot be empty")).toBeVisible();
  await expect(addressField).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page, "a refused correction");

  await nameField.fill(fullName);
  await addressField.fill("1 Main Street Springfield, IL 62701");
  await page.getByRole("button", { name: "Save my corrected details" }).click();
  await expect(page.getByText("Your details were corrected.").first()).toBeVisible();
  await expect(details).toContainText(fullName);
  await expect(details).toContainText("1 Main Street Springfield, IL 62701");
  const mail = await waitForMail(E2E_CONTACT_EMAIL, `Investor name and address corrected: ${fullName}`);
  expect(mail.text).toContain(`Full name: ${typo}`);
  expect(mail.text).toContain(account.email);

  // The NDA goes out (marked as an administrator would, before the trail recorded it): the details are fixed.
  await withDatabase(E2E_DATABASE, (db) => updateUser(db, account.email, { sent: true }));
  await visit(page, "/financing", javaScriptOn);
  await expect(page.getByText(NDA_PENDING)).toBeVisible();
  await expect(step(page, "NDA sent")).toContainText("Done (date not recorded)");
  await expect(step(page, "NDA signed")).toHaveAttribute("aria-current", "step");
  await expect(page.getByText("Correct my details")).toHaveCount(0);
  await expect(page.getByText(/Your details are fixed now that the NDA has been sent/)).toBeVisible();
  await expectNoAxeViolations(page, "the NDA sent, the details fixed");
  await expectFitsPhones(page, "the NDA sent");

  const forged = await page.request.post("/financing?index", {
    form: { intent: "correct", fullName: "Someone Else", address: "Elsewhere" },
    headers: { Origin: E2E_BASE_URL },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(409);
  await visit(page, "/financing", javaScriptOn);
  await expect(details).toContainText(fullName);
});

test("Download my data gives the account's data as a JSON file, in sudo mode only", async ({ page, javaScriptOn }) => {
  const account = await loggedInAccount(page, javaScriptOn, "my-data");
  await withDatabase(E2E_DATABASE, (db) =>
    updateUser(db, account.email, { fullName: "Data Investor", address: "2 Data Street" }),
  );

  // The sign-in just asked for the password, so the security page's changes are open.
  await visit(page, "/financing/security", javaScriptOn);
  await expect(page.getByRole("heading", { name: "Your data", level: 2 })).toBeVisible();
  await expectNoAxeViolations(page, "the security page with Your data");
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download my data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("my-data.json");
  const data = JSON.parse(fs.readFileSync((await download.path())!, "utf8"));
  expect(data.account).toMatchObject({ email: account.email, fullName: "Data Investor", address: "2 Data Street" });
  expect(data.nda.detailsGiven.done).toBe(true);
  expect(data.sessions.some((session: { current: boolean }) => session.current)).toBe(true);
  expect(data.activity.map((entry: { code: string }) => entry.code)).toContain("account.data_exported");
  const mail = await waitForMail(account.email, "A copy of your data was downloaded");
  expect(mail.text).toContain("If it was not you");

  // The answer's headers, as a script sees them.
  const answer = await page.request.post("/financing/security/data", {
    form: {},
    headers: { Origin: E2E_BASE_URL },
  });
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("application/json; charset=utf-8");
  expect(answer.headers()["content-disposition"]).toBe('attachment; filename="my-data.json"');
  expect(JSON.parse(await answer.text()).account.email).toBe(account.email);

  // Ten minutes on (the confirmation closed): no button, and the download itself refuses.
  await withDatabase(E2E_DATABASE, (db) => expireReauthentication(db, account.email));
  await visit(page, "/financing/security", javaScriptOn);
  await expect(page.getByRole("button", { name: "Download my data" })).toHaveCount(0);
  await expect(page.getByText("Confirm it's you above to download it.")).toBeVisible();
  await expectNoAxeViolations(page, "Your data before confirming");
  const refused = await page.request.post("/financing/security/data", {
    form: {},
    headers: { Origin: E2E_BASE_URL, Accept: "text/html" },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain("/financing/confirm?returnTo=%2Ffinancing%2Fsecurity");
});
