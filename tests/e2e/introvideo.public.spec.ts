import type { Page } from "@playwright/test";
import { VIDEO_LAYOUT_BREAKPOINT_PX } from "../../app/content/constants";
import { introVideo, videoAgreement } from "../../app/content/intro-video";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";

/**
 * /introvideo: the disclaimer, the agreement box (its label verbatim) and
 * the video it unlocks, with JavaScript (no reload) and without (a GET form).
 */
const agreeBox = (page: Page) => page.getByRole("checkbox", { name: videoAgreement.label, exact: true });
const viewVideo = (page: Page) => page.getByRole("button", { name: videoAgreement.submit });
const video = (page: Page) => page.getByLabel(introVideo.video.label);

/** With JavaScript, the answer must come without a page load: a marker on window survives only then. */
async function markDocument(page: Page, javaScriptOn: boolean) {
  if (javaScriptOn) await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
}
async function expectSameDocument(page: Page, javaScriptOn: boolean) {
  if (javaScriptOn) expect(await page.evaluate(() => "__sameDocument" in window)).toBe(true);
}

test.describe("at 768px", () => {
  test.use({ viewport: { width: 768, height: 1024 } });

  test("shows the disclaimer and the agreement box with its required label, and no video", async ({
    page,
    javaScriptOn,
  }) => {
    await visit(page, "/introvideo", javaScriptOn);
    await expect(page).toHaveTitle(/^Introductory video \| /);
    await expect(page.getByRole("heading", { level: 1, name: introVideo.heading })).toBeVisible();
    await expect(page.getByText(/not an offer|Nothing in this video is investment/).first()).toBeVisible();
    await expect(page.locator("label", { hasText: "I have read" })).toHaveText(
      "I have read, understood, and agree to the terms of this disclaimer",
    );
    await expect(agreeBox(page)).not.toBeChecked();
    await expect(viewVideo(page)).toBeVisible();
    await expect(page.locator("video")).toHaveCount(0);
    await expectNoAxeViolations(page, "/introvideo");
  });

  test("View video without ticking the box shows a message and no video", async ({ page, javaScriptOn }) => {
    const videoRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.endsWith(".mp4")) videoRequests.push(request.url());
    });
    await visit(page, "/introvideo", javaScriptOn);
    await markDocument(page, javaScriptOn);
    await viewVideo(page).click();

    const message = page.getByRole("alert").filter({ hasText: videoAgreement.notAgreed });
    await expect(message).toBeVisible();
    await expect(agreeBox(page)).toHaveAttribute("aria-invalid", "true");
    await expect(agreeBox(page)).toHaveAccessibleDescription(videoAgreement.notAgreed);
    if (javaScriptOn) await expect(agreeBox(page)).toBeFocused();
    await expect(page.locator("video")).toHaveCount(0);
    expect(videoRequests).toEqual([]);
    await expectSameDocument(page, javaScriptOn);
    await expectNoAxeViolations(page, "/introvideo without agreement");
  });

  test("ticking the box, then View video, shows the looping, autoplaying video with controls, contained", async ({
    page,
    javaScriptOn,
  }) => {
    await visit(page, "/introvideo", javaScriptOn);
    await markDocument(page, javaScriptOn);
    await agreeBox(page).check();
    await viewVideo(page).click();

    await expect(page).toHaveURL(/[?&]agree=on/);
    const player = video(page);
    await expect(player).toBeVisible();
    await expect(player).toHaveAttribute("src", introVideo.video.src);
    await expect(player).toHaveAttribute("autoplay", "");
    await expect(player).toHaveAttribute("loop", "");
    await expect(player).toHaveAttribute("controls", "");
    await expect(player).toHaveCSS("object-fit", "contain");
    await expect(player).toBeInViewport();
    // It fills the width and the screen's height below the header.
    const box = (await player.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(768 - 20);
    expect(box.height).toBeGreaterThan(1024 * 0.8);
    if (javaScriptOn) await expect(player).toBeFocused();
    // Ticking the box and clicking is the gesture the browser's autoplay rules ask for: it plays.
    await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
    await expectSameDocument(page, javaScriptOn);
    await expectNoAxeViolations(page, "/introvideo with the video");
  });
});

test.describe("at 1280px", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the agreed video covers the screen", async ({ page, javaScriptOn }) => {
    await visit(page, "/introvideo", javaScriptOn);
    await agreeBox(page).check();
    await viewVideo(page).click();
    const player = video(page);
    await expect(player).toBeVisible();
    await expect(player).toHaveCSS("object-fit", "cover");
    await expect(player).toBeInViewport();
    await expectNoAxeViolations(page, "/introvideo with the video at 1280px");
  });

  test("a shared link with ?agree=on plays the video at once; the video file is served", async ({
    page,
    javaScriptOn,
    request,
  }) => {
    await visit(page, "/introvideo?agree=on", javaScriptOn);
    await expect(video(page)).toBeVisible();
    if (javaScriptOn) {
      await expect
        .poll(() => video(page).evaluate((element: HTMLVideoElement) => element.readyState))
        .toBeGreaterThanOrEqual(2);
    }
    const file = await request.get(introVideo.video.src);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toBe("video/mp4");
    expect((await file.body()).byteLength).toBeLessThanOrEqual(2 * 1024 * 1024);
  });
});

// Either side of the 1024px breakpoint: the whole picture below it, edge to edge from it.
for (const width of [VIDEO_LAYOUT_BREAKPOINT_PX - 1, VIDEO_LAYOUT_BREAKPOINT_PX]) {
  const fit = width >= VIDEO_LAYOUT_BREAKPOINT_PX ? "cover" : "contain";
  test(`at ${width}px the agreed video is ${fit === "cover" ? "edge to edge (cover)" : "whole (contain)"}`, async ({
    page,
    javaScriptOn,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await visit(page, "/introvideo", javaScriptOn);
    await agreeBox(page).check();
    await viewVideo(page).click();
    await expect(video(page)).toHaveCSS("object-fit", fit);
  });
}
