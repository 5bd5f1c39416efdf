import { AxeBuilder } from "@axe-core/playwright";
import { expect, test as base, type Browser, type Page } from "@playwright/test";
import { SCROLL_ANIMATION_OFFSET_PX } from "~/content/constants";

export const VIEWPORTS = [
  { name: "phone", width: 375, height: 740 },
  { name: "tablet", width: 768, height: 1024 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

/**
 * WCAG 2.2 AA, as axe checks it. Axe runs inside the page, which a page without
 * JavaScript cannot do; there it checks a copy of that page's very DOM (scripts
 * stripped) in a scripting page of the same origin and viewport.
 *
 * Axe runs in one pass in the page itself ("legacy mode"): its default splits the run and finishes it in
 * a fresh blank page, which is how it reaches frames of other origins. The site has no frames (checked
 * below), and on a slow machine the blank page cost about a second a scan (2.0-3.5 s against 1.3-2.4 s).
 */
export async function expectNoAxeViolations(page: Page, context?: string) {
  const javaScriptOn = base.info().project.use.javaScriptEnabled !== false;
  if (javaScriptOn) await settleAnimations(page);
  const target = javaScriptOn ? page : await snapshotWithScripting(page);
  expect(target.frames(), "a page of the site has no frames").toHaveLength(1);
  const results = await new AxeBuilder({ page: target })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .setLegacyMode()
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(" ")).join("\n    ")}`,
  );
  expect(summary, `axe violations${context ? ` on ${context}` : ""}`).toEqual([]);
}

/**
 * Axe measures contrast on what is painted now: a block still fading in (a click
 * that scrolls reveals more of the landing page) reads as too faint. So wait until
 * every scroll-in block in view has been told to show (its check is throttled),
 * then for a server-rendered notice to become its toast, then for every finite
 * animation and transition to end; endless ones (a spinner) and paused ones (a
 * notice under the pointer, fully shown) are left.
 */
async function settleAnimations(page: Page) {
  await page.waitForFunction(
    ({ offset }) =>
      [...document.querySelectorAll(".reveal:not(.reveal--visible)")].every((element) => {
        const { top, bottom } = element.getBoundingClientRect();
        return top > innerHeight - offset && bottom > innerHeight;
      }),
    { offset: SCROLL_ANIMATION_OFFSET_PX },
  );
  // A notice the server rendered as a status line is taken over by the toaster once its chunk arrives,
  // and the toast then slides in: until the line is gone, that animation has not even begun.
  await page.waitForFunction(() => document.querySelector(".status-line") === null);
  // One animation's end may start the next (a notice's timer bar ends, then the
  // notice fades out), so wait until a frame passes with none left running.
  await page.evaluate(async () => {
    const finite = () =>
      document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === "running" && animation.effect?.getComputedTiming().iterations !== Infinity,
        );
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (let running = finite(); ; running = finite()) {
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
      await nextFrame();
      if (running.length === 0 && finite().length === 0) return;
    }
  });
}

/**
 * One scripting page per browser (each worker's), kept across scans: a fresh context for each copy
 * cost about a second a scan on a slow machine. Each copy replaces the whole document.
 */
const scriptingPages = new WeakMap<Browser, Promise<Page>>();

function scriptingPageOf(browser: Browser): Promise<Page> {
  let scripting = scriptingPages.get(browser);
  if (!scripting) {
    scripting = browser.newContext({ javaScriptEnabled: true, bypassCSP: true }).then((context) => context.newPage());
    scriptingPages.set(browser, scripting);
  }
  return scripting;
}

async function snapshotWithScripting(page: Page): Promise<Page> {
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const copy = await scriptingPageOf(page.context().browser()!);
  const viewport = page.viewportSize();
  if (viewport) await copy.setViewportSize(viewport);
  const origin = new URL(page.url()).origin;
  if (new URL(copy.url()).origin !== origin) await copy.goto(`${origin}/robots.txt`);
  await copy.setContent(html, { waitUntil: "load" });
  return copy;
}

export const test = base.extend<{ javaScriptOn: boolean }>({
  javaScriptOn: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },
  // Each test is its own visitor: a client address of its own (the e2e server
  // trusts one proxy hop), so per-IP rate limits count one visitor, as in life.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, "X-Forwarded-For": randomClientAddress() });
  },
});

function randomClientAddress() {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

/**
 * Navigates and, with JavaScript on, waits until React has hydrated, so that a
 * click is handled by the app and not silently by the no-JavaScript path.
 */
export async function visit(page: Page, url: string, javaScriptOn: boolean) {
  const response = await page.goto(url);
  if (javaScriptOn) await waitForHydration(page);
  return response;
}

export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

export { expect };
