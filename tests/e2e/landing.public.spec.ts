import type { Page } from "@playwright/test";
import { LANDING_VIDEO_BREAKPOINT_PX } from "../../app/content/constants";
import { contactForm } from "../../app/content/contact";
import { copyrightLine } from "../../app/content/copyright";
import { faqEntries } from "../../app/content/faq";
import { contactSection, faqBlock, hero, intro, pricing, signedInBar } from "../../app/content/landing";
import { teamMembers } from "../../app/content/team";
import { loggedInAccount } from "./support/accounts";
import { expect, expectNoAxeViolations, test, VIEWPORTS, visit } from "./support/fixtures";

/**
 * The landing page (/ and /home): its blocks and required texts at every width,
 * the hero video's rules (never loaded on narrow screens, with reduced motion
 * or without JavaScript; pausable when it plays), the scroll-in animation that
 * never hides content, and the shared header's menus.
 */
const LANDING_PATHS = ["/", "/home"] as const;

const isVideoRequest = (url: string) => new URL(url).pathname.endsWith(".mp4");

/** Every .mp4 the page asks for from now on. */
function recordVideoRequests(page: Page) {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (isVideoRequest(request.url())) urls.push(request.url());
  });
  return urls;
}

/** Hydration has run its effects and the browser has had time to start any download. */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
}

const heroPoster = (page: Page) => page.locator("img.hero__poster");
const heroVideo = (page: Page) => page.locator("video.hero__video");

for (const path of LANDING_PATHS) {
  for (const viewport of VIEWPORTS) {
    test.describe(`${path} at ${viewport.width}px`, () => {
      test.use({ viewport: { width: viewport.width, height: viewport.height } });

      test("shows every block with its heading and required texts, and passes axe", async ({ page, javaScriptOn }) => {
        const response = await visit(page, path, javaScriptOn);
        expect(response?.status()).toBe(200);

        await expect(page.getByRole("heading", { level: 1, name: hero.heading })).toBeVisible();
        const poster = heroPoster(page);
        await expect(poster).toBeVisible();
        await expect(poster).toHaveAttribute("fetchpriority", "high");
        await expect(poster).toHaveAttribute("width", /\d+/);
        await expect(poster).toHaveAttribute("height", /\d+/);

        const introBlock = page.getByRole("region", { name: intro.heading });
        await expect(introBlock).toContainText(/instant settlement on U\.S\. stocks and ETFs/);
        await expect(introBlock).toContainText("Alternative Trading System (ATS)");
        await expect(introBlock).toContainText(intro.interested);
        await expect(introBlock.getByRole("link", { name: intro.contactLink.label })).toHaveAttribute(
          "href",
          "/contact",
        );

        const pricingBlock = page.getByRole("region", { name: "Simple, transparent pricing" });
        await expect(pricingBlock.getByRole("heading", { level: 2 })).toHaveText("Simple, transparent pricing");
        await expect(pricingBlock.getByText("Coming soon", { exact: true })).toBeVisible();

        const contactBlock = page.getByRole("region", { name: "Contact Us Today" });
        await expect(contactBlock).toHaveAttribute("id", "contact");
        await expect(contactBlock.getByRole("heading", { name: "Let's Connect" })).toBeVisible();
        await expect(contactBlock.getByLabel(contactForm.labels.firstName)).toBeVisible();
        await expect(contactBlock.getByRole("button", { name: "Send Message" })).toBeVisible();

        const faqBlockRegion = page.getByRole("region", { name: faqBlock.heading });
        for (const entry of faqEntries.slice(0, faqBlock.count)) {
          await expect(faqBlockRegion.getByText(entry.question)).toBeVisible();
        }
        await expect(faqBlockRegion.getByRole("link", { name: faqBlock.allLink.label })).toHaveAttribute(
          "href",
          "/faq",
        );

        const team = page.getByRole("region", { name: "WHO WE ARE" });
        await expect(team.getByRole("heading", { level: 2, name: "WHO WE ARE" })).toBeVisible();
        for (const member of teamMembers) await expect(team.getByRole("link", { name: member.name })).toBeVisible();

        // The footer is there at once (nothing waits for the video).
        await expect(
          page.getByRole("contentinfo").getByText(copyrightLine(new Date().getUTCFullYear()), { exact: true }),
        ).toBeVisible();

        await expect(page).toHaveTitle(
          path === "/" ? /^Instant settlement for U\.S\. stocks and ETFs \| / : /^Home \| /,
        );
        await expectNoAxeViolations(page, `${path} at ${viewport.width}px`);
      });
    });
  }
}

test.describe("the footer's copyright line", () => {
  test("runs to the year the server rendered the page in, whatever the browser's clock says", async ({
    page,
    javaScriptOn,
  }) => {
    const serverYear = new Date().getUTCFullYear();
    // A browser whose clock is years ahead: its own render must still say the server's year.
    await page.clock.setFixedTime(new Date(Date.UTC(serverYear + 5, 0, 1)));
    const reactErrors: string[] = [];
    page.on("console", (message) => {
      // React's production build reports a hydration mismatch as minified errors 418, 423 and 425.
      if (message.type() === "error" && /hydrat|Minified React error #4(18|23|25)/i.test(message.text())) {
        reactErrors.push(message.text());
      }
    });
    await visit(page, "/faq", javaScriptOn);
    const footer = page.getByRole("contentinfo");
    // With JavaScript, this is after hydration: a browser that rendered its own year would show it here.
    await expect(footer.getByText(copyrightLine(serverYear), { exact: true })).toBeVisible();
    expect(reactErrors).toEqual([]);
  });
});

test.describe("the hero video", () => {
  // Either side of the 640px breakpoint: the poster the picture picks, the hero's height and, with JavaScript, the video.
  for (const width of [LANDING_VIDEO_BREAKPOINT_PX - 1, LANDING_VIDEO_BREAKPOINT_PX]) {
    const wide = width >= LANDING_VIDEO_BREAKPOINT_PX;
    test(`at ${width}px: ${wide ? "the wide poster, a full-screen hero, and the video with JavaScript" : "the narrow poster, a shorter hero, and no video"}`, async ({
      page,
      javaScriptOn,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      const posterRequests: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/images/hero-poster")) posterRequests.push(new URL(request.url()).pathname);
      });
      const videoRequests = recordVideoRequests(page);
      await visit(page, "/", javaScriptOn);
      await settle(page);

      expect([...new Set(posterRequests)]).toEqual([wide ? hero.poster.wide.src : hero.poster.narrow.src]);
      const heroBox = (await page.locator("section.hero").boundingBox())!;
      const headerBox = (await page.getByRole("banner").boundingBox())!;
      if (wide) expect(heroBox.height).toBeGreaterThanOrEqual(800 - headerBox.height - 1);
      else expect(heroBox.height).toBeLessThan(800 - headerBox.height - 1);
      const videoExpected = wide && javaScriptOn;
      await expect(heroVideo(page)).toHaveCount(videoExpected ? 1 : 0);
      if (videoExpected) await expect.poll(() => videoRequests.length).toBeGreaterThan(0);
      else expect(videoRequests).toEqual([]);
    });
  }

  test.describe("at 375px", () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test("is never requested; the poster stays", async ({ page, javaScriptOn }) => {
      const videoRequests = recordVideoRequests(page);
      await visit(page, "/", javaScriptOn);
      await settle(page);
      await expect(heroPoster(page)).toBeVisible();
      await expect(heroVideo(page)).toHaveCount(0);
      await expect(page.getByRole("button", { name: hero.pause })).toHaveCount(0);
      expect(videoRequests).toEqual([]);
    });
  });

  test.describe("at 1280px", () => {
    test.use({ viewport: { width: 1280, height: 900 } });

    test("shows a spinner while loading, then plays muted in a loop; the pause button pauses and resumes it", async ({
      page,
      javaScriptOn,
    }) => {
      const videoRequests = recordVideoRequests(page);
      // The video's bytes are held back until the test has seen the loading state.
      let releaseVideo = () => {};
      const videoReleased = new Promise<void>((resolve) => (releaseVideo = resolve));
      await page.route(`**${hero.video.src}`, async (route) => {
        await videoReleased;
        await route.continue();
      });
      await visit(page, "/", javaScriptOn);
      if (!javaScriptOn) {
        // Without JavaScript the hero is its poster only (see components/hero-video.tsx for why).
        await settle(page);
        await expect(heroPoster(page)).toBeVisible();
        await expect(heroVideo(page)).toHaveCount(0);
        expect(videoRequests).toEqual([]);
        return;
      }

      const video = heroVideo(page);
      await expect(video).toBeAttached();
      // Until the video can play, a spinner shows and the video is still transparent over the poster.
      await expect(page.locator(".hero__spinner")).toBeVisible();
      await expect(video).toHaveCSS("opacity", "0");
      releaseVideo();
      await expect(video).toBeVisible();
      await expect(video).toHaveAttribute("src", hero.video.src);
      await expect(video).toHaveAttribute("autoplay", "");
      await expect(video).toHaveAttribute("loop", "");
      await expect(video).toHaveAttribute("playsinline", "");
      await expect(video).toHaveAttribute("poster", hero.poster.wide.src);
      expect(await video.evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
      // Loaded: the spinner is gone and the video has faded in over the poster.
      await expect
        .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState))
        .toBeGreaterThanOrEqual(3);
      await expect(page.locator(".hero__spinner")).toHaveCount(0);
      await expect(video).toHaveCSS("opacity", "1");
      await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
      expect(videoRequests.length).toBeGreaterThan(0);

      const pause = page.getByRole("button", { name: hero.pause });
      await expect(pause).toBeVisible();
      await pause.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(true);
      const play = page.getByRole("button", { name: hero.play });
      await expect(play).toBeFocused();
      await expectNoAxeViolations(page, "/ with the hero video paused");

      await play.click();
      await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
      await expect(page.getByRole("button", { name: hero.pause })).toBeVisible();
    });

    test.describe("with reduced motion", () => {
      test.use({ reducedMotion: "reduce" });

      test("is never requested; the poster stays", async ({ page, javaScriptOn }) => {
        const videoRequests = recordVideoRequests(page);
        await visit(page, "/", javaScriptOn);
        await settle(page);
        await expect(heroPoster(page)).toBeVisible();
        await expect(heroVideo(page)).toHaveCount(0);
        expect(videoRequests).toEqual([]);
      });
    });
  });
});

test.describe("the scroll-in animation", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  // The blocks that animate in: intro, pricing, contact, FAQ and the team.
  const revealBlocks = (page: Page) => page.locator(".reveal");

  test("hides nothing without JavaScript; with it, a block appears once scrolled into view", async ({
    page,
    javaScriptOn,
  }) => {
    await visit(page, "/", javaScriptOn);
    const blocks = revealBlocks(page);
    await expect(blocks).toHaveCount(5);
    if (!javaScriptOn) {
      for (const block of await blocks.all()) await expect(block).toHaveCSS("opacity", "1");
      return;
    }
    // Below the full-screen hero, nothing has come into view yet.
    const pricingBlock = page.getByRole("region", { name: pricing.heading });
    await expect(pricingBlock).not.toHaveClass(/reveal--visible/);
    await expect(pricingBlock).toHaveCSS("opacity", "0");

    await pricingBlock.scrollIntoViewIfNeeded();
    await expect(pricingBlock).toHaveClass(/reveal--visible/);
    await expect(pricingBlock).toHaveCSS("opacity", "1");
    // Once shown it stays, also when scrolled away again.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(200);
    await expect(pricingBlock).toHaveClass(/reveal--visible/);

    // At the bottom of the page every block has been passed, the last one included.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    for (const block of await blocks.all()) await expect(block).toHaveClass(/reveal--visible/);
  });

  test("hides nothing when the page's script fails to load, nor in print", async ({ page, javaScriptOn }) => {
    // The bundle blocked, as by a filter, an outage or a CDN error: the inline scripts still run.
    await page.route("**/build/**", (route) => route.abort());
    await page.goto("/");
    const blocks = revealBlocks(page);
    await expect(blocks).toHaveCount(5);
    await page.waitForTimeout(500);
    for (const block of await blocks.all()) await expect(block).toHaveCSS("opacity", "1");

    // With the script running, a block still below the fold is hidden on screen, but printed whole.
    await page.unroute("**/build/**");
    await visit(page, "/", javaScriptOn);
    const pricingBlock = page.getByRole("region", { name: pricing.heading });
    await expect(pricingBlock).toHaveCSS("opacity", javaScriptOn ? "0" : "1");
    await page.emulateMedia({ media: "print" });
    for (const block of await blocks.all()) await expect(block).toHaveCSS("opacity", "1");
  });

  test.describe("with reduced motion", () => {
    test.use({ reducedMotion: "reduce" });

    test("hides nothing, without scrolling", async ({ page, javaScriptOn }) => {
      await visit(page, "/", javaScriptOn);
      const blocks = revealBlocks(page);
      await expect(blocks).toHaveCount(5);
      for (const block of await blocks.all()) {
        await expect(block).toHaveCSS("opacity", "1");
        await expect(block).toHaveCSS("transform", "none");
      }
    });
  });
});

test.describe("the landing page's blocks", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  for (const path of LANDING_PATHS) {
    test(`the contact form on ${path} sends and comes back to its section with a notice`, async ({
      page,
      javaScriptOn,
    }) => {
      await visit(page, path, javaScriptOn);
      const contactBlock = page.getByRole("region", { name: contactSection.heading });
      await contactBlock.getByLabel(contactForm.labels.firstName).fill("Ada");
      await contactBlock.getByLabel(contactForm.labels.lastName).fill(`Landing-${javaScriptOn ? "js" : "nojs"}`);
      await contactBlock.getByLabel(contactForm.labels.email).fill("ada@example.com");
      await contactBlock.getByLabel(contactForm.labels.message).fill("We would like to trade on the ATS.");
      await contactBlock.getByRole("button", { name: "Send Message" }).click();

      const notice = javaScriptOn
        ? page.locator(".Toastify").getByText(contactForm.sent)
        : page.getByRole("status").filter({ hasText: contactForm.sent });
      await expect(notice).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`${path === "/" ? "/" : "/home"}#contact$`));
      await expect(contactBlock.getByLabel(contactForm.labels.message)).toHaveValue("");
    });
  }

  test("an FAQ opens in place and the link leads to all FAQs", async ({ page, javaScriptOn }) => {
    await visit(page, "/", javaScriptOn);
    const faq = page.getByRole("region", { name: faqBlock.heading });
    const [first] = faqEntries;
    await faq.getByText(first.question).click();
    await expect(faq.getByText(first.answer)).toBeVisible();
    await expectNoAxeViolations(page, "/ with an FAQ open");
    await faq.getByRole("link", { name: faqBlock.allLink.label }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.getByRole("heading", { level: 1, name: "Frequently Asked Questions" })).toBeVisible();
  });

  test("a team card opens the member's dialog on the landing page, and it closes", async ({ page, javaScriptOn }) => {
    const [member] = teamMembers;
    await visit(page, "/", javaScriptOn);
    const team = page.getByRole("region", { name: "WHO WE ARE" });
    await team.getByRole("link", { name: member.name }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]member=${member.slug}`));
    const dialog = page.getByRole("dialog", { name: member.name });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(member.job)).toBeVisible();
    await expectNoAxeViolations(page, "/ with a team member's dialog open");
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/$/);
  });

  test("a member's dialog opened by the URL shows at once, without scrolling to the team", async ({
    page,
    javaScriptOn,
  }) => {
    const [member] = teamMembers;
    await visit(page, `/?member=${member.slug}`, javaScriptOn);
    const dialog = page.getByRole("dialog", { name: member.name });
    await expect(dialog).toBeVisible();
    await expect(dialog).toBeInViewport();
    const opacity = await dialog.evaluate((element) => {
      let value = 1;
      for (let node: Element | null = element; node; node = node.parentElement) {
        value *= Number(getComputedStyle(node).opacity);
      }
      return value;
    });
    expect(opacity).toBe(1);
  });
});

test.describe("/home for a signed-in investor", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("shows who is signed in and its Log Out signs out", async ({ page, javaScriptOn }) => {
    const account = await loggedInAccount(page, javaScriptOn, "home-logout");
    await visit(page, "/home", javaScriptOn);
    await expect(page.getByText(signedInBar.text(account.email))).toBeVisible();
    await expectNoAxeViolations(page, "/home signed in");
    await page.getByRole("button", { name: signedInBar.logOut }).click();
    await expect(page).toHaveURL(/\/financing\/login$/);

    await visit(page, "/home", javaScriptOn);
    await expect(page.getByRole("heading", { level: 1, name: hero.heading })).toBeVisible();
    await expect(page.getByRole("button", { name: signedInBar.logOut })).toHaveCount(0);
  });
});

test.describe("the shared header", () => {
  test.describe("at 1280px", () => {
    test.use({ viewport: { width: 1280, height: 900 } });

    test("the Company menu opens on hover and on keyboard focus", async ({ page, javaScriptOn }) => {
      // Hover, focus and axe in each state: 18 s on a quiet machine, past 30 s on a busy one.
      test.slow();
      await visit(page, "/", javaScriptOn);
      const nav = page.getByRole("navigation", { name: "Main" });
      const company = nav.getByRole("button", { name: "Company" });
      const companyLinks = ["About Us", "News", "Contact Us"].map((name) => nav.getByRole("link", { name }));
      for (const link of companyLinks) await expect(link).toBeHidden();

      await company.hover();
      for (const link of companyLinks) await expect(link).toBeVisible();
      await expectNoAxeViolations(page, "/ with the Company menu open (hover)");

      await page.mouse.move(640, 600);
      for (const link of companyLinks) await expect(link).toBeHidden();

      await company.focus();
      for (const link of companyLinks) await expect(link).toBeVisible();
      await page.keyboard.press("Tab");
      await expect(companyLinks[0]).toBeFocused();
      await expect(companyLinks[0]).toBeVisible();
      await expectNoAxeViolations(page, "/ with the Company menu open (keyboard)");
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/\/aboutus$/);
    });
  });

  test.describe("at 375px", () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test("the hamburger opens the side menu, which locks page scrolling with JavaScript", async ({
      page,
      javaScriptOn,
    }) => {
      await visit(page, "/", javaScriptOn);
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
      const toggle = page.getByRole("banner").locator("summary");
      await expect(toggle).toHaveAccessibleName("Menu");
      const sideMenu = page.getByRole("navigation", { name: "Mobile" });
      await expect(sideMenu).toBeHidden();

      await toggle.click();
      await expect(sideMenu).toBeVisible();
      for (const name of ["Pricing", "FAQ", "About Us", "News", "Contact Us"]) {
        await expect(sideMenu.getByRole("link", { name })).toBeVisible();
      }
      const box = await sideMenu.boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(740 - 1);
      if (javaScriptOn) await expect(page.locator("body")).toHaveClass(/\bscroll-locked\b/);
      await expectNoAxeViolations(page, "/ with the mobile menu open");

      await toggle.click();
      await expect(sideMenu).toBeHidden();
      await expect(page.locator("body")).not.toHaveClass(/\bscroll-locked\b/);
    });

    test("a link in the side menu navigates and closes the menu", async ({ page, javaScriptOn }) => {
      await visit(page, "/", javaScriptOn);
      await page.getByRole("banner").locator("summary").click();
      await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "FAQ" }).click();
      await expect(page).toHaveURL(/\/faq$/);
      await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
      await expect(page.locator("body")).not.toHaveClass(/\bscroll-locked\b/);
    });
  });
});
