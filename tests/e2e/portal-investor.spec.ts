/**
 * The investor's side, with and without JavaScript: from sign-up through the
 * status screens of /financing (0 → 1 → 2 → materials) while an administrator
 * flips the NDA flags in the investor table in a second browser context; the
 * materials, the PDF and the video; and the refusals at every materials URL.
 */
import type { Browser, Locator, Page } from "@playwright/test";
import { createAdministrator, loggedInAccount, logIn } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import { MATERIALS_PAGES } from "./support/portal-pages";
import { E2E_CONTACT_EMAIL } from "./support/server";

const MATERIALS_FILES = ["/pdfs/download.pdf", "/video/investorvideo.mp4"];
/** The firm's mailbox of the e2e server: the portal shows it, and it receives the investors' notices. */
const FIRM_MAILBOX = E2E_CONTACT_EMAIL;

/** The address the investor gives, a line a field. */
const ADDRESS_LINES = ["1 Main Street", "Suite 200", "Springfield, IL 62701"];

/** The address as a page shows it: each line an element of its own, each below the one before. */
async function expectAddressLinesApart(where: Locator) {
  const lines = where.locator(".address-lines__line");
  await expect(lines).toHaveText(ADDRESS_LINES);
  const tops = await lines.evaluateAll((elements) => elements.map((line) => line.getBoundingClientRect().top));
  expect(tops[1]).toBeGreaterThan(tops[0]);
  expect(tops[2]).toBeGreaterThan(tops[1]);
}

/** The administrator's page in its own browser context, sharing the investor's JavaScript setting. */
async function administratorPage(browser: Browser, javaScriptOn: boolean) {
  const context = await browser.newContext({ javaScriptEnabled: javaScriptOn });
  const page = await context.newPage();
  await logIn(page, javaScriptOn, await createAdministrator());
  return page;
}

/** Sets one NDA flag of one investor through the investor table (auto-submit with JavaScript, Save without). */
async function setFlag(admin: Page, javaScriptOn: boolean, email: string, flag: "NDA sent" | "NDA completed") {
  await visit(admin, `/financing?q=${encodeURIComponent(email)}`, javaScriptOn);
  const label = `${flag} for ${email}`;
  await admin.getByLabel(label, { exact: true }).selectOption({ label: "Yes" });
  if (!javaScriptOn) await admin.getByRole("button", { name: `Save: ${label}` }).click();
  const notice = flag === "NDA sent" ? "NDA sent state changed" : "NDA Sign state changed";
  await expect(admin.getByText(notice).first()).toBeVisible();
  await expect(admin.getByLabel(label, { exact: true })).toHaveValue("yes");
}

/** A page that refuses: the status and the explanation, or the login page for a visitor. */
async function expectRefused(page: Page, javaScriptOn: boolean, url: string) {
  const response = await visit(page, url, javaScriptOn);
  expect(response?.status(), url).toBe(403);
  await expect(page.getByRole("heading", { name: "The materials are not open to you yet", level: 1 })).toBeVisible();
}

/**
 * The distinct Cache-Control directives: server.js sets `no-store` on every
 * portal path and the file route adds `private, no-store`, so the header
 * arrives as "no-store, private, no-store", which means the same.
 */
function cacheDirectives(header: string | undefined) {
  return [...new Set((header ?? "").split(",").map((d) => d.trim()))].sort();
}

async function expectFilesRefused(page: Page, status: number) {
  for (const url of MATERIALS_FILES) {
    const response = await page.request.get(url, { maxRedirects: 0, headers: { Range: "bytes=0-99" } });
    expect(response.status(), url).toBe(status);
    if (status === 302) expect(response.headers()["location"]).toBe("/financing/login");
    expect(response.headers()["content-type"] ?? "").not.toMatch(/pdf|video/);
  }
}

test.describe("the investor's way to the materials", () => {
  test.describe.configure({ timeout: 240_000 });

  test("goes from sign-up through every state to the materials, the PDF and the video", async ({
    page,
    browser,
    javaScriptOn,
  }) => {
    const account = await loggedInAccount(page, javaScriptOn, "portal");
    const fullName = `Jane Roe ${Date.now().toString(36)}`;

    // State 0: the name and address form; a full name is required.
    await expect(page.getByRole("heading", { name: "Your name and address", level: 1 })).toBeVisible();
    await expectNoAxeViolations(page, "state 0, the name and address form");
    await page.getByLabel("Address Line 1").fill("1 Main Street");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Full name cannot be empty")).toBeVisible();
    await expect(page.getByLabel("Full Name")).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page, "state 0 with a field message");

    await page.getByLabel("Full Name").fill(`  ${fullName} `);
    await page.getByLabel("Address Line 1").fill(` ${ADDRESS_LINES[0]} `);
    await page.getByLabel("Address Line 2").fill(ADDRESS_LINES[1]);
    await page.getByLabel("Address Line 3").fill(ADDRESS_LINES[2]);
    await page.getByRole("button", { name: "Submit" }).click();

    // State 1: the thank-you message, with the notice; the firm's mailbox is told.
    await expect(page).toHaveURL(/\/financing$/);
    await expect(page.getByText("Name and address submitted!").first()).toBeVisible();
    await expect(
      page.getByText(
        "You will receive an email shortly regarding the non-disclosure agreement with further instructions",
      ),
    ).toBeVisible();
    await expect(page.getByLabel("Address Line 1")).toHaveCount(0);
    await expectNoAxeViolations(page, "state 1, the thank-you message");
    // The details show the address's lines apart; the firm's mail has the address as stored, on one line.
    await expectAddressLinesApart(page.locator(".my-details__facts"));
    const mail = await waitForMail(FIRM_MAILBOX, `Investor name and address submitted: ${fullName}`);
    expect(mail.text).toContain("1 Main Street Suite 200 Springfield, IL 62701");
    expect(mail.text).toContain(account.email);

    // The administrator marks the NDA sent: state 2. The table and the investor's page show the lines apart.
    const admin = await administratorPage(browser, javaScriptOn);
    await setFlag(admin, javaScriptOn, account.email, "NDA sent");
    await expectAddressLinesApart(admin.locator("tbody tr", { hasText: account.email }));
    await admin.getByRole("link", { name: fullName, exact: true }).click();
    await expect(admin.getByRole("heading", { name: fullName, level: 1 })).toBeVisible();
    await expectAddressLinesApart(admin.locator(".investor-page__facts"));
    await visit(page, "/financing", javaScriptOn);
    await expect(page.getByText("NDA is not completed yet.")).toBeVisible();
    await expect(page.getByRole("link", { name: FIRM_MAILBOX })).toHaveAttribute("href", `mailto:${FIRM_MAILBOX}`);
    await expectNoAxeViolations(page, "state 2, NDA not completed");
    for (const url of MATERIALS_PAGES) await expectRefused(page, javaScriptOn, url);
    await expectFilesRefused(page, 403);

    // The administrator marks the NDA signed: /financing leads to the materials.
    await setFlag(admin, javaScriptOn, account.email, "NDA completed");
    await admin.context().close();
    await visit(page, "/financing", javaScriptOn);
    await expect(page).toHaveURL(/\/financing\/materials$/);
    await expect(
      page.getByRole("heading", { name: `Welcome ${fullName}. We invite you to review the following materials.` }),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: FIRM_MAILBOX })).toBeVisible();
    await expectNoAxeViolations(page, "the materials");
    // The specification's links (the library beneath them has its own spec, library-investor.spec.ts).
    const specLinks = page.getByRole("navigation", { name: "Materials" });
    for (const name of ["Description of the firm (pdf)", "Slide deck", "Offering details"]) {
      await expect(specLinks.getByRole("link", { name, exact: true })).toHaveAttribute("href", "/pdfs/download.pdf");
    }

    // The PDF, with the browser's own session.
    const pdf = await page.request.get("/pdfs/download.pdf");
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect(cacheDirectives(pdf.headers()["cache-control"])).toEqual(["no-store", "private"]);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

    // The introductory video opens in a new tab, behind its disclaimer.
    const videoLink = specLinks.getByRole("link", { name: /^Introductory video/ });
    await expect(videoLink).toHaveAttribute("target", "_blank");
    const [videoPage] = await Promise.all([page.context().waitForEvent("page"), videoLink.click()]);
    await videoPage.waitForLoadState();
    await expect(videoPage).toHaveURL(/\/financing\/introductoryvideo$/);
    if (javaScriptOn) await videoPage.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await expect(videoPage.getByText(/not a prospectus/)).toBeVisible();
    await expect(videoPage.locator("video")).toHaveCount(0);
    await expectNoAxeViolations(videoPage, "the investor video's disclaimer");

    const videoResponse = videoPage.waitForResponse((r) => r.url().endsWith("/video/investorvideo.mp4"));
    await videoPage.getByLabel("I have read, understood, and agree to the terms of this disclaimer").check();
    await videoPage.getByRole("button", { name: "View video" }).click();
    await expect(videoPage.getByLabel(/investor video/)).toBeVisible();
    const served = await videoResponse;
    expect([200, 206]).toContain(served.status());
    expect(served.headers()["content-type"]).toBe("video/mp4");
    await expectNoAxeViolations(videoPage, "the investor video");

    for (const url of ["/financing/termsandconditions", "/financing/slidedeck", "/financing/descriptionofsecurities"]) {
      const response = await visit(page, url, javaScriptOn);
      expect(response?.status(), url).toBe(200);
    }
    await expect(page.getByRole("heading", { name: "Description of Securities", level: 1 })).toBeVisible();
    await expectNoAxeViolations(page, "a title-only page");
  });

  test("an investor without a signed NDA is refused at every materials URL", async ({ page, javaScriptOn }) => {
    await loggedInAccount(page, javaScriptOn, "unsigned");
    for (const url of MATERIALS_PAGES) await expectRefused(page, javaScriptOn, url);
    await expectNoAxeViolations(page, "the refusal page");
    await expectFilesRefused(page, 403);
  });

  test("a visitor is sent to the login page from every materials URL", async ({ page, javaScriptOn }) => {
    for (const url of MATERIALS_PAGES) {
      await visit(page, url, javaScriptOn);
      await expect(page, url).toHaveURL(/\/financing\/login$/);
    }
    await expectNoAxeViolations(page, "the login page a visitor is sent to");
    await expectFilesRefused(page, 302);
  });
});
