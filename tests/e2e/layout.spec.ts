import type { Page } from "@playwright/test";
import { publicPages } from "~/content/navigation";
import { updateUser, withDatabase } from "../support/outside-database";
import {
  createAdministrator,
  createVerifiedAccount,
  freshResetPath,
  submitLogin,
  type TestAccount,
} from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { MATERIALS_PAGES } from "./support/portal-pages";
import { E2E_DATABASE } from "./support/server";

/**
 * At a phone's width nothing scrolls the whole page sideways: not a public page, not an account page,
 * not the administrator's table, whose own box is the only thing that may scroll.
 */
test.use({ viewport: { width: 375, height: 740 } });

const ACCOUNT_PAGES = ["/financing/login", "/financing/signup", "/financing/forgotpassword", "/financing/verify-email"];

async function signIn(page: Page, javaScriptOn: boolean, account: TestAccount) {
  await submitLogin(page, javaScriptOn, account);
  await expect(page).toHaveURL(/\/financing$/);
}

async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test("no public or account page scrolls sideways at 375px", async ({ page, javaScriptOn }) => {
  test.slow();
  const paths = [...publicPages, "/home", "/contactus", ...ACCOUNT_PAGES, await freshResetPath(page.request)];
  for (const path of paths) {
    await visit(page, path, javaScriptOn);
    expect(await sidewaysOverflow(page), path).toBeLessThanOrEqual(0);
  }
});

test("no screen of an investor's portal scrolls sideways at 375px", async ({ page, javaScriptOn }) => {
  const investor = await createVerifiedAccount(page, javaScriptOn, "layout-investor");
  await signIn(page, javaScriptOn, investor);
  expect(await sidewaysOverflow(page), "the name and address form").toBeLessThanOrEqual(0);
  // The NDA marked signed, as an administrator would: the materials open.
  await withDatabase(E2E_DATABASE, (db) => updateUser(db, investor.email, { fullName: "Ada Layout", signed: true }));
  for (const path of MATERIALS_PAGES) {
    await visit(page, path, javaScriptOn);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await sidewaysOverflow(page), path).toBeLessThanOrEqual(0);
  }
});

test("the server's own error page (a malformed URL) fits, links home and passes axe", async ({
  page,
  javaScriptOn,
}) => {
  const response = await page.goto("/faq%E0%A4%A");
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1, name: "Bad request" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the home page" })).toHaveAttribute("href", "/");
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, `the server's error page${javaScriptOn ? "" : " without JavaScript"}`);
});

test("the administrator's table and the audit log are cards at 375px: nothing scrolls sideways", async ({
  page,
  javaScriptOn,
}) => {
  // axe over two full tables at 375px takes about 20 s on two cores: three times the default budget.
  test.slow();
  await signIn(page, javaScriptOn, await createAdministrator());
  for (const path of ["/financing", "/financing/audit"]) {
    await visit(page, path, javaScriptOn);
    await expect(
      page.getByRole(path === "/financing" ? "table" : "list", { name: /Registered investors|Audit events/ }),
    ).toBeVisible();
    expect(await sidewaysOverflow(page), path).toBeLessThanOrEqual(0);
    if (path === "/financing") {
      // Each row is a card of labelled lines: neither the page nor the table's own box scrolls sideways.
      const box = page.locator(".investor-table__scroll");
      expect(await box.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    }
    await expectNoAxeViolations(page, `${path} at 375px`);
  }
});

test("a notice at 375px leaves the page's heading in view; without JavaScript it can be dismissed", async ({
  page,
  javaScriptOn,
}) => {
  await signIn(page, javaScriptOn, await createVerifiedAccount(page, javaScriptOn, "notice"));
  const notice = page.locator(javaScriptOn ? ".Toastify__toast" : ".status-line");
  await expect(notice).toContainText("Log in success");
  // Let the toast's entrance animation finish before measuring where it rests.
  await page.waitForTimeout(1_000);
  const heading = (await page.getByRole("heading", { level: 1 }).boundingBox())!;
  const box = (await notice.boundingBox())!;
  const overlaps =
    box.x < heading.x + heading.width &&
    heading.x < box.x + box.width &&
    box.y < heading.y + heading.height &&
    heading.y < box.y + box.height;
  expect(overlaps, `notice ${JSON.stringify(box)}, heading ${JSON.stringify(heading)}`).toBe(false);

  if (!javaScriptOn) {
    await page.getByRole("link", { name: "Dismiss notice" }).click();
    await expect(page).toHaveURL(/\/financing$/);
    await expect(notice).toHaveCount(0);
  }
});

test.describe("at 1280px", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the investor table's search field, filters and button line up", async ({ page, javaScriptOn }) => {
    await signIn(page, javaScriptOn, await createAdministrator());
    const search = page.getByRole("search");
    // all() does not wait: the page may still be on its way after the sign-in.
    await expect(search.getByRole("button", { name: "Search" })).toBeVisible();
    const filters = await search.getByRole("combobox").all();
    expect(filters.length).toBeGreaterThan(0);
    const boxes = await Promise.all(
      [search.getByRole("searchbox"), ...filters, search.getByRole("button", { name: "Search" })].map(
        async (control) => (await control.boundingBox())!,
      ),
    );
    for (const box of boxes.slice(1)) {
      expect(Math.abs(box.y - boxes[0].y)).toBeLessThanOrEqual(1);
      expect(Math.abs(box.height - boxes[0].height)).toBeLessThanOrEqual(1);
    }
  });
});
