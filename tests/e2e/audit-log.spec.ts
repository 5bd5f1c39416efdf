/**
 * The administrator's audit log in a browser, with and without JavaScript: filters through the GET
 * form, each event in words with its details labelled, a bad date refused with 400 and a message,
 * the signed export of what is shown, and cards that stack at 375 and 320 px without sideways scroll;
 * axe on each. (The link to a broken row is in audit-tampering.http.spec.ts, on a server of its own.)
 */
import type { Page } from "@playwright/test";
import { createAdministrator, logIn, type TestAccount } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";

let admin: TestAccount;

test.beforeAll(async () => {
  admin = await createAdministrator();
});

const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("filters by person and event through the form; each event is in words, its details labelled", async ({
  page,
  javaScriptOn,
}) => {
  await logIn(page, javaScriptOn, admin);
  await visit(page, "/financing/audit", javaScriptOn);
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  await expect(page.getByText(/^Hash chain: Verified: unaltered up to row \d+/)).toBeVisible();

  await page.getByLabel("Person (e-mail)").fill(admin.email);
  await page.getByLabel("Event", { exact: true }).selectOption({ label: "Signed in" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]kind=login\.succeeded/);
  expect(new URL(page.url()).searchParams.get("person")).toBe(admin.email);

  const rows = page.locator(".audit-log__row");
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row).toContainText("Signed in with password and authenticator");
  await expect(row.locator("dt", { hasText: /^Method$/ }).locator("xpath=following-sibling::dd[1]")).toHaveText(
    "password and authenticator",
  );
  await expect(row.locator("dt", { hasText: /^Who$/ }).locator("xpath=following-sibling::dd[1]")).toHaveText(
    admin.email,
  );
  expect(await row.getAttribute("id")).toMatch(/^row-\d+$/);
  await expect(row).toContainText(`Row ${(await row.getAttribute("id"))!.slice(4)}`);
  await expect(page.getByLabel("Event", { exact: true })).toHaveValue("login.succeeded");
  await expectNoAxeViolations(page, "the filtered audit log");

  // The export holds what is shown: the one row, then the signature.
  const href = await page.getByRole("link", { name: "Export (signed JSON Lines)" }).getAttribute("href");
  expect(href).toContain("kind=login.succeeded");
  const exported = await page.request.get(href!);
  expect(exported.status()).toBe(200);
  const lines = (await exported.text()).trimEnd().split("\n");
  expect(lines).toHaveLength(2);
  expect(JSON.parse(lines[0])).toMatchObject({ action: "login.succeeded", actor_email: admin.email });
  expect(JSON.parse(lines[1])).toMatchObject({ signature: { algorithm: "HMAC-SHA256", rows: 1 } });

  // The export itself is in the log.
  await visit(page, `/financing/audit?kind=audit.exported&person=${encodeURIComponent(admin.email)}`, javaScriptOn);
  await expect(page.locator(".audit-log__row")).toHaveCount(1);
  await expect(page.locator(".audit-log__row")).toContainText("Exported the audit log, signed");
});

test("a malformed date or a reversed range is refused with 400 and a message", async ({ page, javaScriptOn }) => {
  await logIn(page, javaScriptOn, admin);
  const malformed = await visit(page, "/financing/audit?from=2026-02-30", javaScriptOn);
  expect(malformed?.status()).toBe(400);
  await expect(page.getByRole("alert")).toHaveText("Enter a date as YYYY-MM-DD.");
  await expect(page.locator(".audit-log__row")).toHaveCount(0);
  await expect(page.getByLabel("From (UTC)")).toBeVisible();
  await expectNoAxeViolations(page, "the audit log refusing a date");

  const reversed = await visit(page, "/financing/audit?from=2026-03-02&to=2026-03-01", javaScriptOn);
  expect(reversed?.status()).toBe(400);
  await expect(page.getByRole("alert")).toHaveText("The start date must be on or before the end date.");
});

for (const width of [375, 320, 1280]) {
  test(`the events are cards at ${width}px, e-mail addresses whole, with no sideways scroll`, async ({
    page,
    javaScriptOn,
  }) => {
    test.slow();
    await page.setViewportSize({ width, height: 740 });
    await logIn(page, javaScriptOn, admin);
    await visit(page, `/financing/audit?person=${encodeURIComponent(admin.email)}`, javaScriptOn);
    await expect(page.locator(".audit-log__row").first()).toBeVisible();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    // An e-mail address is shown whole, never cut short by an ellipsis; on a desktop on one line.
    const who = page
      .locator(".audit-log__row")
      .first()
      .locator("dt", { hasText: /^Who$/ })
      .locator("xpath=following-sibling::dd[1]");
    await expect(who).toHaveText(admin.email);
    const shown = await who.evaluate((element) => ({
      clipped: element.scrollWidth > element.clientWidth || getComputedStyle(element).textOverflow === "ellipsis",
      lines: Math.round(element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight)),
    }));
    expect(shown.clipped).toBe(false);
    if (width === 1280) expect(shown.lines).toBe(1);
    await expectNoAxeViolations(page, `the audit log at ${width}px`);
  });
}
