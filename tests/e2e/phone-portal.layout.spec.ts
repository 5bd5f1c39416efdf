/**
 * Every signed-in page of the portal, the investor's and the administrator's, at a phone's 320 and 375 px
 * and at a desktop's width, with JavaScript on and off: the header on one line with each of its controls
 * inside it, nothing wider than the viewport (the page does not scroll sideways, and no element's right
 * edge passes it unless a box of its own clips it), and axe clean at 320 px. One sign-in per role and
 * worker; each page's test opens the portal with that session's cookie and looks at the page at each
 * width in turn.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import {
  addVerification,
  expireReauthentication,
  reauthenticateNow,
  updateUser,
  withDatabase,
} from "../support/outside-database";
import { createAdministrator, loggedInAccount, logIn, type TestAccount } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { E2E_BASE_URL, E2E_DATABASE } from "./support/server";

type Role = "investor" | "administrator";
/** Where the investor is in the portal's steps when the page is shown. */
type InvestorStep = "new" | "named" | "sent" | "signed";

type PortalRoute = {
  role: Role;
  /**
   * `:investor` stands for the signed-in investor's id (the administrator's pages about them), `:video` for the
   * library's introductory video.
   */
  path: string;
  /** The investor's step first (default: signed, so that the materials open). */
  step?: InvestorStep;
  /** Within "Confirm it's you"'s minutes, which show the changes it opens; without, the confirmation's form. */
  sudo?: boolean;
  /** A button pressed on the page, whose answer is the screen checked (a form's POST). */
  press?: string;
  /** The page's status, when it is a refusal (default 200). */
  status?: number;
};

/** Every screen a signed-in user reaches: one line each. */
const PORTAL_ROUTES: PortalRoute[] = [
  { role: "investor", path: "/financing", step: "new" },
  { role: "investor", path: "/financing", step: "named" },
  { role: "investor", path: "/financing", step: "sent" },
  { role: "investor", path: "/financing/materials" },
  { role: "investor", path: "/financing/introductoryvideo" },
  { role: "investor", path: "/financing/materials/:video/watch?agree=on&view=video" },
  { role: "investor", path: "/financing/termsandconditions" },
  { role: "investor", path: "/financing/slidedeck" },
  { role: "investor", path: "/financing/descriptionofsecurities" },
  { role: "investor", path: "/financing/security" },
  { role: "investor", path: "/financing/security", sudo: true },
  { role: "investor", path: "/financing/security/authenticator" },
  { role: "investor", path: "/financing/security/authenticator", sudo: true },
  { role: "investor", path: "/financing/security/password" },
  { role: "investor", path: "/financing/security/sessions" },
  { role: "investor", path: "/financing/confirm?returnTo=/financing/security" },
  { role: "investor", path: "/financing/materials", step: "named", status: 403 },
  { role: "investor", path: "/financing/audit", status: 403 },
  { role: "investor", path: "/financing/library", status: 403 },
  { role: "investor", path: "/financing/trace", status: 403 },
  { role: "administrator", path: "/financing" },
  { role: "administrator", path: "/financing/investors/:investor" },
  { role: "administrator", path: "/financing/investors/:investor", sudo: true },
  { role: "administrator", path: "/financing/investors/:investor/delete" },
  { role: "administrator", path: "/financing/admins" },
  { role: "administrator", path: "/financing/admins", sudo: true },
  { role: "administrator", path: "/financing/audit" },
  { role: "administrator", path: "/financing/library" },
  { role: "administrator", path: "/financing/library/new" },
  { role: "administrator", path: "/financing/alerts" },
  { role: "administrator", path: "/financing/trace" },
  { role: "administrator", path: "/financing/materials" },
  { role: "administrator", path: "/financing/security" },
  { role: "administrator", path: "/financing/security", sudo: true },
  { role: "administrator", path: "/financing/security", sudo: true, press: "Make new recovery codes" },
  { role: "administrator", path: "/financing/security/authenticator", sudo: true },
  { role: "administrator", path: "/financing/security/password" },
  { role: "administrator", path: "/financing/security/sessions" },
  { role: "administrator", path: "/financing/confirm?returnTo=/financing/admins" },
];

const WIDTHS = [
  { width: 320, height: 700 },
  { width: 375, height: 740 },
  { width: 1280, height: 900 },
];

/** The investor's address, given on two lines: the pages show them apart. */
const ADDRESS = { address: "1 Narrow Street Small Town", addressLines: "1 Narrow Street\nSmall Town" };

const STEPS: Record<InvestorStep, Parameters<typeof updateUser>[2]> = {
  new: { fullName: "", address: "", addressLines: null, sent: false, signed: false },
  named: { fullName: "Ada Phone-Width", ...ADDRESS, sent: false, signed: false },
  sent: { fullName: "Ada Phone-Width", ...ADDRESS, sent: true, signed: false },
  signed: { fullName: "Ada Phone-Width", ...ADDRESS, signed: true },
};

type SignedIn = { account: TestAccount; cookies: Awaited<ReturnType<BrowserContext["cookies"]>> };

/**
 * The investor whose pages both roles visit, and an administrator, each signed in once for the worker.
 * The administrator's pages about "the investor" show this one, whose activity fills them.
 */
const signedIn: Partial<Record<Role, SignedIn>> = {};
let investorId = "";
let videoId = "";

test.beforeAll(async ({ browser }) => {
  test.setTimeout(90_000);
  const investor = await newPortalPage(browser, false);
  try {
    const account = await loggedInAccount(investor.page, false, "phone-investor");
    signedIn.investor = { account, cookies: await investor.context.cookies() };
  } finally {
    await investor.context.close();
  }
  const administrator = await newPortalPage(browser, false);
  try {
    const account = await createAdministrator();
    await logIn(administrator.page, false, account);
    signedIn.administrator = { account, cookies: await administrator.context.cookies() };
  } finally {
    await administrator.context.close();
  }
  [investorId, videoId] = await withDatabase(E2E_DATABASE, async (db) => {
    const investor = await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", signedIn.investor!.account.email)
      .executeTakeFirstOrThrow();
    const video = await db
      .selectFrom("documents")
      .select("id")
      .where("title", "=", "Introductory video")
      .orderBy("created_at")
      .executeTakeFirstOrThrow();
    return [investor.id, video.id];
  });
  // The firm's verification of how they qualify: the investors table's Accreditation column says until when.
  await withDatabase(E2E_DATABASE, (db) =>
    addVerification(db, signedIn.investor!.account.email, Date.UTC(2031, 2, 12)),
  );
});

async function newPortalPage(browser: Browser, javaScriptOn: boolean, cookies: SignedIn["cookies"] = []) {
  const context = await browser.newContext({ baseURL: E2E_BASE_URL, javaScriptEnabled: javaScriptOn });
  await context.addCookies(cookies);
  return { context, page: await context.newPage() };
}

/** Opens (or, outside `sudo`, closes) "Confirm it's you"'s minutes in every session of the account. */
async function setSudo(email: string, sudo: boolean) {
  await withDatabase(E2E_DATABASE, (db) => (sudo ? reauthenticateNow(db, email) : expireReauthentication(db, email)));
}

/** The header's controls that are not inside it or that wrap onto a second line, and a header taller than one row. */
function headerProblems(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector("header.site-header");
    if (!header) return ["no header"];
    const problems: string[] = [];
    const box = header.getBoundingClientRect();
    const rowHeight = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--header-height"));
    if (box.height > rowHeight + 1) problems.push(`the header is ${box.height}px tall`);
    const viewport = document.documentElement.clientWidth;
    for (const control of header.querySelectorAll<HTMLElement>("a, button, summary")) {
      const rect = control.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) continue;
      const name = control.getAttribute("aria-label") ?? control.textContent?.trim() ?? control.tagName;
      if (rect.top < box.top || rect.bottom > box.bottom || rect.left < 0 || rect.right > viewport) {
        problems.push(`"${name}" (${JSON.stringify(rect)}) is not inside the header (${JSON.stringify(box)})`);
      }
      const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(text);
        const lines = new Set([...range.getClientRects()].map((line) => Math.round(line.top)));
        if (lines.size > 1) problems.push(`"${name}" wraps onto ${lines.size} lines`);
      }
    }
    return problems;
  });
}

/**
 * The outermost elements whose right edge passes the viewport, except inside a box that clips or
 * scrolls its own content and itself fits; and how far the page scrolls sideways.
 */
function overflowProblems(page: Page) {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const problems: string[] = [];
    const sideways = document.documentElement.scrollWidth - viewport;
    if (sideways > 0) problems.push(`the page scrolls ${sideways}px sideways`);
    const passes = (element: Element) => {
      const rect = element.getBoundingClientRect();
      return rect.width > 0 && rect.height > 0 && rect.right > viewport + 0.5;
    };
    const clippedInside = (node: Node) => {
      for (let parent = node.parentElement; parent; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX !== "visible" && !passes(parent)) return true;
      }
      return false;
    };
    const describe = (element: Element) => {
      const classes = element.getAttribute("class");
      return `<${element.tagName.toLowerCase()}${classes ? ` class="${classes}"` : ""}>`;
    };
    for (const element of document.body.querySelectorAll("*")) {
      if (!passes(element) || clippedInside(element)) continue;
      if (element.parentElement && passes(element.parentElement)) continue;
      problems.push(`${describe(element)} ends at ${Math.round(element.getBoundingClientRect().right)}px`);
    }
    // A word too long for its line runs out of a box that itself fits.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const parent = text.parentElement!;
      if (passes(parent) || clippedInside(text)) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      const { right, width } = range.getBoundingClientRect();
      if (width > 0 && right > viewport + 0.5) {
        problems.push(
          `the text "${text.textContent!.trim().slice(0, 40)}" in ${describe(parent)} ends at ${Math.round(right)}px`,
        );
      }
    }
    return problems;
  });
}

const nameOf = (route: PortalRoute) =>
  [
    `${route.role}: ${route.path}`,
    route.step ? `(${route.step})` : "",
    route.sudo ? "in sudo mode" : "",
    route.press ? `after "${route.press}"` : "",
    route.status ? `(${route.status})` : "",
  ]
    .filter(Boolean)
    .join(" ");

for (const route of PORTAL_ROUTES) {
  test(`${nameOf(route)} at ${WIDTHS.map(({ width }) => width).join(", ")}px: one-row header, nothing wider; axe clean at ${WIDTHS[0].width}px`, async ({
    browser,
    javaScriptOn,
  }) => {
    // Three widths, and axe twice without JavaScript (a scripted copy of the page), on two shared cores.
    test.slow();
    const session = signedIn[route.role]!;
    await withDatabase(E2E_DATABASE, (db) =>
      updateUser(db, signedIn.investor!.account.email, STEPS[route.step ?? "signed"]),
    );
    await setSudo(session.account.email, route.sudo ?? false);
    const { context, page } = await newPortalPage(browser, javaScriptOn, session.cookies);
    try {
      await page.setViewportSize(WIDTHS[0]);
      const response = await visit(
        page,
        route.path.replace(":investor", investorId).replace(":video", videoId),
        javaScriptOn,
      );
      expect(response?.status()).toBe(route.status ?? 200);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      if (route.press) {
        await page.getByRole("button", { name: route.press }).click();
        await expect(page.getByRole("button", { name: route.press })).toHaveCount(0);
      }
      // The same page at each width: the layout is the stylesheet's alone.
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        const where = `${nameOf(route)} at ${size.width}px`;
        // Soft: one run names every width that does not fit, not only the first.
        expect.soft(await headerProblems(page), where).toEqual([]);
        expect.soft(await overflowProblems(page), where).toEqual([]);
        // Axe at the narrowest width, where the layout is tightest; each page's own spec runs it on a desktop.
        if (size === WIDTHS[0]) await expectNoAxeViolations(page, where);
      }
    } finally {
      await context.close();
    }
  });
}
