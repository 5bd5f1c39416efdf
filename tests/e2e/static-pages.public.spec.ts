import type { Page } from "@playwright/test";
import { signupPage } from "../../app/content/account-pages/signup";
import { firm } from "../../app/content/firm";
import { sentence } from "../../app/content/sentence";
import { expect, expectNoAxeViolations, test, VIEWPORTS, visit } from "./support/fixtures";
import { E2E_CONTACT_EMAIL } from "./support/server";

type StaticPage = {
  path: string;
  title: string;
  heading: string;
  /** The required words, as they must appear. */
  check: (page: Page) => Promise<void>;
};

const main = (page: Page) => page.getByRole("main");

const pages: StaticPage[] = [
  {
    path: "/pricing",
    title: "Pricing",
    heading: "Simple, transparent pricing",
    check: async (page) => {
      await expect(main(page).getByText("Coming soon", { exact: true })).toBeVisible();
    },
  },
  {
    path: "/news",
    title: "News",
    heading: "News",
    check: async (page) => {
      await expect(main(page).getByText("Coming soon", { exact: true })).toBeVisible();
    },
  },
  {
    path: "/demo",
    title: "Demo",
    heading: "Demo",
    check: async (page) => {
      await expect(main(page).getByText("Coming soon", { exact: true })).toBeVisible();
    },
  },
  {
    path: "/investors",
    title: "Institutional Investors",
    heading: "Institutional Investors",
    check: async (page) => {
      const content = main(page);
      await expect(content.getByText("Institutional investors are welcome, especially market makers.")).toBeVisible();
      await expect(content.getByText(/U\.S\. stocks and ETFs with instant settlement/)).toBeVisible();
      await expect(content.getByText(/institutional, U\.S\.-registered broker-dealers/)).toBeVisible();
      // Form ATS-N is named but not published yet: a label, not a link.
      await expect(content.getByText("Form ATS-N", { exact: true })).toBeVisible();
      await expect(content.getByRole("link", { name: /Form ATS-N/ })).toHaveCount(0);
      // The institutional mailbox defaults to the configured CONTACT_EMAIL.
      const mailbox = content.getByRole("link", { name: E2E_CONTACT_EMAIL });
      await expect(mailbox).toHaveAttribute("href", `mailto:${E2E_CONTACT_EMAIL}`);
      // Where investors look for the portal: here, and in every page's footer.
      await expect(content.getByRole("link", { name: "Sign in to the investor portal" })).toHaveAttribute(
        "href",
        "/financing/login",
      );
      await expect(page.getByRole("contentinfo").getByRole("link", { name: "Investor Login" })).toHaveAttribute(
        "href",
        "/financing/login",
      );
    },
  },
  {
    path: "/disclaimer",
    title: "Disclaimer",
    heading: "Disclaimer",
    check: async (page) => {
      const content = main(page);
      // One period after a name that brings its own ("… Holdings Inc."), never two.
      await expect(
        content.getByText(`${firm.name} is a wholly owned subsidiary of ${sentence(firm.parentCompany)}`, {
          exact: true,
        }),
      ).toBeVisible();
      await expect(content).not.toContainText("..");
      await expect(
        content.getByText(`${firm.name} is a member of ${firm.regulator.name} and ${firm.investorProtection.name}.`),
      ).toBeVisible();
      await expect(content.getByRole("link", { name: firm.regulator.name })).toHaveAttribute(
        "href",
        firm.regulator.url,
      );
      await expect(content.getByRole("link", { name: firm.investorProtection.name })).toHaveAttribute(
        "href",
        firm.investorProtection.url,
      );
      await expect(content.getByText(/for informational purposes only/)).toBeVisible();
      await expect(
        content.getByText(/not investment, legal, tax or accounting advice, and it is not an offer/),
      ).toBeVisible();
      await expect(
        content.getByText(/Unauthorized use of this website or of its content is prohibited\./),
      ).toBeVisible();
      await expect(content.getByText(/may be reproduced.* without the prior written consent of/)).toBeVisible();
    },
  },
];

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const staticPage of pages) {
      test(`${staticPage.path} shows its heading and text`, async ({ page, javaScriptOn }) => {
        const response = await visit(page, staticPage.path, javaScriptOn);
        expect(response?.status()).toBe(200);
        await expect(page).toHaveTitle(`${staticPage.title} | ${firm.shortName}`);
        await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /\S/);
        await expect(page.getByRole("heading", { level: 1, name: staticPage.heading })).toBeVisible();
        await staticPage.check(page);
        // Nothing wider than the screen: no sideways scrolling on a phone.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await expectNoAxeViolations(page, `${staticPage.path} at ${viewport.width}px`);
      });
    }
  });
}

test("every static page has its own title and description", async ({ page, javaScriptOn }) => {
  const seen = new Set<string>();
  for (const staticPage of pages) {
    await visit(page, staticPage.path, javaScriptOn);
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(seen.has(description ?? ""), `${staticPage.path} repeats a description`).toBe(false);
    seen.add(description ?? "");
  }
});

for (const viewport of VIEWPORTS) {
  test(`/signup at ${viewport.width}px lands on the financing portal's sign-up page, which passes axe`, async ({
    page,
    javaScriptOn,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await visit(page, "/signup", javaScriptOn);
    await expect(page).toHaveURL(/\/financing\/signup$/);
    await expect(page.getByRole("heading", { level: 1, name: signupPage.heading })).toBeVisible();
    await expect(page.getByText(signupPage.terms)).toBeVisible();
    await expectNoAxeViolations(page, `/signup at ${viewport.width}px`);
  });
}
