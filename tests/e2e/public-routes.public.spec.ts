import type { Page } from "@playwright/test";
import { copyrightLine } from "../../app/content/copyright";
import { expect, expectNoAxeViolations, test, VIEWPORTS, visit } from "./support/fixtures";

/**
 * Every public route (docs/requirements.md, "Public pages"), at each viewport, with JavaScript on
 * and off (the two Playwright projects): its heading, the required texts verbatim, the
 * shared header and footer, and no axe violation.
 */
const ROUTES: { path: string; heading: string | RegExp; texts: string[] }[] = [
  { path: "/", heading: "WHO WE ARE", texts: ["Simple, transparent pricing", "Contact Us Today", "Let's Connect"] },
  { path: "/home", heading: "WHO WE ARE", texts: ["Contact Us Today"] },
  { path: "/contact", heading: "Let's Connect", texts: ["Fill out the form below to get started"] },
  { path: "/contactus", heading: "Let's Connect", texts: ["Fill out the form below to get started"] },
  { path: "/aboutus", heading: "WHO WE ARE", texts: [] },
  { path: "/news", heading: /news/i, texts: ["Coming soon"] },
  { path: "/faq", heading: "Frequently Asked Questions", texts: [] },
  { path: "/pricing", heading: "Simple, transparent pricing", texts: ["Coming soon"] },
  { path: "/demo", heading: /demo/i, texts: ["Coming soon"] },
  { path: "/investors", heading: /institutional/i, texts: ["Form ATS-N"] },
  { path: "/disclaimer", heading: /disclaimer/i, texts: [] },
  {
    path: "/introvideo",
    heading: /video/i,
    texts: ["I have read, understood, and agree to the terms of this disclaimer"],
  },
];

async function expectSiteFrame(page: Page, width: number) {
  const banner = page.getByRole("banner");
  await expect(banner.getByRole("link", { name: /home/i })).toBeVisible();
  if (width >= 700) {
    const main = page.getByRole("navigation", { name: "Main" });
    await expect(main.getByRole("link", { name: "Pricing" })).toBeVisible();
    await expect(main.getByRole("link", { name: "FAQ" })).toBeVisible();
    await expect(main.getByRole("button", { name: "Company" })).toBeVisible();
  } else {
    await expect(banner.getByText("Menu")).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  }
  const footer = page.getByRole("contentinfo");
  for (const name of ["News", "Pricing", "FAQ", "About Us", "Contact Us", /Disclaimer/]) {
    await expect(footer.getByRole("link", { name, exact: typeof name === "string" })).toBeVisible();
  }
  await expect(footer.getByText("Form ATS-N")).toBeVisible();
  await expect(footer.getByText(copyrightLine(new Date().getUTCFullYear()), { exact: true })).toBeVisible();
  await expect(footer.getByRole("link", { name: /Business Continuity/ })).toHaveAttribute("href", /\.pdf$/);
  await expect(footer.getByRole("link", { name: /BrokerCheck/ })).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const route of ROUTES) {
      test(`${route.path} shows its heading, its texts, the header and footer, and passes axe`, async ({
        page,
        javaScriptOn,
      }) => {
        const response = await visit(page, route.path, javaScriptOn);
        expect(response?.status()).toBe(200);
        await expect(page.getByRole("heading", { name: route.heading }).first()).toBeVisible();
        for (const text of route.texts) await expect(page.getByText(text, { exact: false }).first()).toBeVisible();
        await expect(page).toHaveTitle(/\S/);
        const description = await page.locator('meta[name="description"]').getAttribute("content");
        expect(description?.length).toBeGreaterThan(20);
        await expectSiteFrame(page, viewport.width);
        await expectNoAxeViolations(page, `${route.path} at ${viewport.width}px`);
      });
    }
  });
}

test("every public page has its own title", async ({ page }) => {
  const titles = new Set<string>();
  for (const route of ROUTES.filter((r) => !["/home", "/contactus"].includes(r.path))) {
    await page.goto(route.path);
    titles.add(await page.title());
  }
  expect(titles.size).toBe(ROUTES.length - 2);
});

test("an unknown URL gets a 404 page that keeps the header and footer", async ({ page, javaScriptOn }) => {
  const response = await visit(page, "/no-such-page", javaScriptOn);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("banner")).toBeVisible();
  await expect(page.getByRole("contentinfo")).toBeVisible();
  await expectNoAxeViolations(page, "404");
});

test("every route change scrolls to the top", async ({ page, javaScriptOn }) => {
  await visit(page, "/faq", javaScriptOn);
  const footerPricing = page.getByRole("contentinfo").getByRole("link", { name: "Pricing" });
  await footerPricing.scrollIntoViewIfNeeded();
  await footerPricing.click();
  await expect(page).toHaveURL(/\/pricing$/);
  // Measured from outside the page, so it holds with JavaScript off too. With JavaScript the URL
  // changes a moment before the new page is painted and scrolled, so the position is polled.
  const heading = page.getByRole("heading", { level: 1, name: "Simple, transparent pricing" });
  await expect
    .poll(async () => {
      const box = await heading.boundingBox();
      return box !== null && box.y >= 0 && box.y < 400;
    })
    .toBe(true);
});
