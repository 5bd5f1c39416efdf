import type { Page } from "@playwright/test";
import { FAQ_PAGE_SIZE } from "~/content/constants";
import { faqEntries } from "~/content/faq";
import { expect, expectNoAxeViolations, test, VIEWPORTS, visit } from "./support/fixtures";

const questions = (page: Page) => page.getByRole("list", { name: "Questions" }).getByRole("listitem");
const searchBox = (page: Page) => page.getByRole("searchbox", { name: "Search the questions" });
const loadMore = (page: Page) => page.getByRole("button", { name: "Load More" });
const question = (page: Page, text: string) => page.locator("summary", { hasText: text });

/**
 * Opens or closes a question once the list has stopped moving: an answer
 * opening above it slides it down over the accordion's 200 ms, and a click
 * aimed while it slides can land on the answer above instead.
 */
async function toggle(page: Page, text: string) {
  const summary = question(page, text);
  let previousTop: number | undefined;
  await expect
    .poll(
      async () => {
        const top = (await summary.boundingBox())?.y;
        const still = top !== undefined && top === previousTop;
        previousTop = top;
        return still;
      },
      { intervals: [100] },
    )
    .toBe(true);
  await summary.click();
}

/** Types a search; without JavaScript the GET form needs its Search button. */
async function search(page: Page, text: string, javaScriptOn: boolean) {
  await searchBox(page).fill(text);
  if (!javaScriptOn) await page.getByRole("button", { name: "Search", exact: true }).click();
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("shows ten questions, Load More adds ten and hides when all are shown", async ({ page, javaScriptOn }) => {
      await visit(page, "/faq", javaScriptOn);
      await expect(page.getByRole("heading", { level: 1, name: "Frequently Asked Questions" })).toBeVisible();
      await expect(searchBox(page)).toHaveAttribute("placeholder", "What are you looking for?");
      await expect(page.getByRole("button", { name: "Clear search" })).toBeVisible();
      await expect(questions(page)).toHaveCount(FAQ_PAGE_SIZE);
      await expect(question(page, faqEntries[0].question)).toBeVisible();

      await loadMore(page).click();
      await expect(questions(page)).toHaveCount(2 * FAQ_PAGE_SIZE);
      await expect(page).toHaveURL(/[?&]show=20/);
      const firstAdded = question(page, faqEntries[FAQ_PAGE_SIZE].question);
      if (javaScriptOn) await expect(firstAdded).toBeFocused();
      // Without JavaScript the new page opens at the first question added, not at the top.
      else await expect(page).toHaveURL(new RegExp(`#faq-${faqEntries[FAQ_PAGE_SIZE].id}$`));
      await expect(firstAdded).toBeInViewport();

      await loadMore(page).click();
      await expect(questions(page)).toHaveCount(faqEntries.length);
      await expect(loadMore(page)).toHaveCount(0);
    });

    test("several answers are open at once, and axe passes with them open", async ({ page, javaScriptOn }) => {
      await visit(page, "/faq", javaScriptOn);
      const [first, second, third] = faqEntries;
      await toggle(page, first.question);
      await toggle(page, third.question);
      await expect(page.getByText(first.answer)).toBeVisible();
      await expect(page.getByText(third.answer)).toBeVisible();
      await expect(page.getByText(second.answer)).toBeHidden();

      await toggle(page, first.question);
      await expect(page.getByText(first.answer)).toBeHidden();
      await expect(page.getByText(third.answer)).toBeVisible();

      await toggle(page, second.question);
      await expect(page.getByText(second.answer)).toBeVisible();
      await expectNoAxeViolations(page, `/faq with answers open at ${viewport.width}px`);
    });

    test("search narrows case-insensitively, says when nothing matches, and clear restores", async ({
      page,
      javaScriptOn,
    }) => {
      await visit(page, "/faq", javaScriptOn);
      const matching = faqEntries.filter((e) => `${e.question} ${e.answer}`.toLowerCase().includes("gtc"));
      expect(matching.length).toBeGreaterThan(0);

      await search(page, "gTc", javaScriptOn);
      await expect(page).toHaveURL(/[?&]q=gTc/);
      await expect(questions(page)).toHaveCount(matching.length);
      for (const entry of matching) await expect(question(page, entry.question)).toBeVisible();
      await expect(loadMore(page)).toHaveCount(0);

      await search(page, "zebra stripes", javaScriptOn);
      await expect(page.getByText("No questions match “zebra stripes”.", { exact: false })).toBeVisible();
      await expect(questions(page)).toHaveCount(0);
      await expectNoAxeViolations(page, `/faq with no match at ${viewport.width}px`);

      await page.getByRole("button", { name: "Clear search" }).click();
      await expect(questions(page)).toHaveCount(FAQ_PAGE_SIZE);
      await expect(searchBox(page)).toHaveValue("");
      await expect(loadMore(page)).toBeVisible();
      expect(new URL(page.url()).searchParams.get("q") ?? "").toBe("");
    });
  });
}

test("an empty search restores the full list", async ({ page, javaScriptOn }) => {
  await visit(page, "/faq?q=settle", javaScriptOn);
  await expect(searchBox(page)).toHaveValue("settle");
  const narrowed = await questions(page).count();
  expect(narrowed).toBeLessThan(FAQ_PAGE_SIZE);
  await search(page, "", javaScriptOn);
  await expect(questions(page)).toHaveCount(FAQ_PAGE_SIZE);
  await expect(loadMore(page)).toBeVisible();
});

test("Load More keeps the search", async ({ page, javaScriptOn }) => {
  await visit(page, "/faq?q=no", javaScriptOn);
  const matching = faqEntries.filter((e) => `${e.question} ${e.answer}`.toLowerCase().includes("no"));
  expect(matching.length).toBeGreaterThan(FAQ_PAGE_SIZE);
  await expect(questions(page)).toHaveCount(FAQ_PAGE_SIZE);
  await loadMore(page).click();
  await expect(questions(page)).toHaveCount(Math.min(matching.length, 2 * FAQ_PAGE_SIZE));
  await expect(page).toHaveURL(/q=no/);
});

test("bad ?show= values are clamped, never an error", async ({ page, javaScriptOn }) => {
  for (const [show, count] of [
    ["-5", FAQ_PAGE_SIZE],
    ["abc", FAQ_PAGE_SIZE],
    ["99999999999999999999999", FAQ_PAGE_SIZE],
    ["1000", faqEntries.length],
    ["15", 15],
  ] as const) {
    const response = await visit(page, `/faq?show=${show}`, javaScriptOn);
    expect(response?.status(), `show=${show}`).toBe(200);
    await expect(questions(page), `show=${show}`).toHaveCount(count);
  }
});

test("with JavaScript the list follows the box as you type, without a scroll jump or a history entry; without it the Search button submits", async ({
  page,
  javaScriptOn,
}) => {
  await page.setViewportSize({ width: 1280, height: 500 });
  await visit(page, "/faq", javaScriptOn);
  if (!javaScriptOn) {
    await searchBox(page).fill("hours");
    await expect(questions(page)).toHaveCount(FAQ_PAGE_SIZE);
    await expect(page).not.toHaveURL(/q=/);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/[?&]q=hours/);
    await expect(questions(page)).not.toHaveCount(FAQ_PAGE_SIZE);
    return;
  }
  const historyLength = await page.evaluate(() => history.length);
  await page.mouse.wheel(0, 150);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await searchBox(page).focus();
  const scrollY = await page.evaluate(() => window.scrollY);

  await searchBox(page).pressSequentially("hours", { delay: 30 });
  await expect(page).toHaveURL(/[?&]q=hours/);
  await expect(questions(page)).not.toHaveCount(FAQ_PAGE_SIZE);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrollY);
  expect(await page.evaluate(() => history.length)).toBe(historyLength);
  await expect(searchBox(page)).toBeFocused();
});
