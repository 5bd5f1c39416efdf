import type { Page } from "@playwright/test";
import { teamMembers } from "~/content/team";
import { expect, expectNoAxeViolations, test, VIEWPORTS, visit } from "./support/fixtures";

const [founder] = teamMembers;
const tbd = teamMembers.find((member) => member.name === "TBD")!;

const cards = (page: Page) => page.getByRole("list", { name: "Team members" }).getByRole("listitem");
const modal = (page: Page) => page.getByRole("dialog");
const cardLink = (page: Page, name: string) =>
  page.getByRole("list", { name: "Team members" }).getByRole("link", { name, exact: true });

async function expectMemberDetails(page: Page, member: (typeof teamMembers)[number]) {
  const dialog = modal(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleName(member.name);
  await expect(dialog.getByRole("heading", { name: member.name })).toBeVisible();
  await expect(dialog.getByText(member.job, { exact: true })).toBeVisible();
  await expect(dialog.getByRole("img", { name: `Photo of ${member.name}` })).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Close" })).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("WHO WE ARE shows a card per member; a card opens the member's modal, which passes axe", async ({
      page,
      javaScriptOn,
    }) => {
      await visit(page, "/aboutus", javaScriptOn);
      await expect(page.getByRole("heading", { level: 1, name: "WHO WE ARE" })).toBeVisible();
      await expect(cards(page)).toHaveCount(4);
      for (const member of teamMembers) {
        await expect(cardLink(page, member.name)).toBeVisible();
        await expect(cards(page).filter({ hasText: member.job })).toHaveCount(1);
      }
      await expect(modal(page)).toHaveCount(0);

      await cardLink(page, founder.name).click();
      await expect(page).toHaveURL(`/aboutus?member=${founder.slug}`);
      await expectMemberDetails(page, founder);
      await expect(modal(page).getByText(founder.bio)).toBeVisible();
      await expect(modal(page).getByRole("link", { name: `LinkedIn profile of ${founder.name}` })).toHaveAttribute(
        "href",
        founder.linkedin,
      );
      await expectNoAxeViolations(page, `/aboutus with the modal open at ${viewport.width}px`);
    });
  });
}

test("the close icon closes the modal", async ({ page, javaScriptOn }) => {
  await visit(page, `/aboutus?member=${founder.slug}`, javaScriptOn);
  await expectMemberDetails(page, founder);
  await modal(page).getByRole("link", { name: "Close" }).click();
  await expect(page).toHaveURL("/aboutus");
  await expect(modal(page)).toHaveCount(0);
  await expect(cards(page)).toHaveCount(4);
});

test("a click outside closes the modal", async ({ page, javaScriptOn }) => {
  await visit(page, "/aboutus", javaScriptOn);
  await cardLink(page, founder.name).click();
  await expectMemberDetails(page, founder);
  await page.mouse.click(5, 300);
  await expect(page).toHaveURL("/aboutus");
  await expect(modal(page)).toHaveCount(0);
});

test("the TBD member's modal has no biography and no profile link", async ({ page, javaScriptOn }) => {
  await visit(page, "/aboutus", javaScriptOn);
  await cardLink(page, "TBD").click();
  await expect(page).toHaveURL(`/aboutus?member=${tbd.slug}`);
  await expectMemberDetails(page, tbd);
  await expect(modal(page).locator(".team-modal__bio")).toHaveCount(0);
  await expect(modal(page).getByRole("link")).toHaveCount(1); // only Close
  await expect(modal(page).getByRole("link", { name: /LinkedIn/ })).toHaveCount(0);
  await expectNoAxeViolations(page, "/aboutus with the TBD modal open");
});

test("an unknown member shows no modal and no error", async ({ page, javaScriptOn }) => {
  const response = await visit(page, "/aboutus?member=nobody%3Cscript%3E", javaScriptOn);
  expect(response?.status()).toBe(200);
  await expect(cards(page)).toHaveCount(4);
  await expect(modal(page)).toHaveCount(0);
});

test("with JavaScript the modal is modal: focus moves in, Escape closes it and focus returns to the card", async ({
  page,
  javaScriptOn,
}) => {
  await visit(page, "/aboutus", javaScriptOn);
  const card = cardLink(page, founder.name);
  if (!javaScriptOn) {
    // Without JavaScript the server renders a plain open dialog; Escape has nothing to close.
    await card.click();
    await expect(modal(page)).toHaveAttribute("open", "");
    await expect(page.locator("dialog:modal")).toHaveCount(0);
    return;
  }
  const historyLength = await page.evaluate(() => history.length);
  await card.focus();
  await page.keyboard.press("Enter");
  await expectMemberDetails(page, founder);
  await expect(page.locator("dialog:modal")).toHaveCount(1);
  await expect(modal(page).getByRole("link", { name: "Close" })).toBeFocused();

  await page.keyboard.press("Escape");
  await expect(page).toHaveURL("/aboutus");
  await expect(modal(page)).toHaveCount(0);
  await expect(card).toBeFocused();
  // Opening pushed one entry; closing replaced it rather than adding another.
  expect(await page.evaluate(() => history.length)).toBe(historyLength + 1);
});

test("a modal opened from a shared link stays open until closed, and Escape closes it with JavaScript", async ({
  page,
  javaScriptOn,
}) => {
  await visit(page, `/aboutus?member=${founder.slug}`, javaScriptOn);
  await expectMemberDetails(page, founder);
  // The server renders it open; after hydration it must still be open (now modal) and the URL unchanged.
  await page.waitForTimeout(500);
  await expect(modal(page)).toBeVisible();
  await expect(page).toHaveURL(`/aboutus?member=${founder.slug}`);
  await expect(page.locator("dialog:modal")).toHaveCount(javaScriptOn ? 1 : 0);
  if (!javaScriptOn) return;

  await page.keyboard.press("Escape");
  await expect(page).toHaveURL("/aboutus");
  await expect(modal(page)).toHaveCount(0);
});
