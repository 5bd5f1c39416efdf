import { expect, test, visit } from "./support/fixtures";

/**
 * The header's menus follow the disclosure pattern of the WAI-ARIA Authoring Practices. Without
 * JavaScript they are a <details> element and CSS, and open and close with their button; with it,
 * Escape closes them and returns focus to the button, and the mobile panel also closes on a tap
 * outside it and on a link to the page already shown, and keeps focus inside while open.
 */
test.describe("the mobile menu at 375px", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("closes on Escape, a tap outside and a link to the current page, and keeps focus inside", async ({
    page,
    javaScriptOn,
  }) => {
    await visit(page, "/faq", javaScriptOn);
    const toggle = page.getByRole("banner").locator("summary");
    const panel = page.getByRole("navigation", { name: "Mobile" });
    await toggle.click();
    await expect(panel).toBeVisible();

    if (!javaScriptOn) {
      // Without JavaScript the disclosure itself: its button closes it.
      await toggle.click();
      await expect(panel).toBeHidden();
      return;
    }

    // Focus cycles through the button and the panel's links, never to the page behind.
    const stops = 1 + (await panel.getByRole("link").count());
    for (let i = 0; i < stops + 2; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest("details.mobile-menu")))).toBe(true);
    }
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("details.mobile-menu")))).toBe(true);

    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(toggle).toBeFocused();

    await toggle.click();
    await expect(panel).toBeVisible();
    await page.mouse.click(20, 400);
    await expect(panel).toBeHidden();
    await expect(page.locator("body")).not.toHaveClass(/\bscroll-locked\b/);

    await toggle.click();
    await panel.getByRole("link", { name: "FAQ" }).click();
    await expect(panel).toBeHidden();
    await expect(page).toHaveURL(/\/faq$/);
  });
});

test.describe("the Company menu at 1280px", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("Escape closes it and returns focus to its button, even under the pointer", async ({ page, javaScriptOn }) => {
    await visit(page, "/", javaScriptOn);
    const button = page.getByRole("button", { name: "Company" });
    const firstLink = page.getByRole("banner").getByRole("link", { name: "About Us" });
    await button.focus();
    await page.keyboard.press("Tab");
    await expect(firstLink).toBeFocused();
    await expect(firstLink).toBeVisible();
    if (!javaScriptOn) return; // Without JavaScript it opens and closes with focus and the pointer (CSS).

    await page.keyboard.press("Escape");
    await expect(button).toBeFocused();
    await expect(firstLink).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");

    await button.hover();
    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(firstLink).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(firstLink).toBeHidden();
    await expect(button).toBeFocused();
  });
});
