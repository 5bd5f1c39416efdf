import { insertUsers, withDatabase } from "../support/outside-database";
import { createAdministrator, newAccount, submitLogin } from "./support/accounts";
import { expect, test, visit } from "./support/fixtures";
import { E2E_DATABASE } from "./support/server";

/**
 * The administrator's NDA dropdowns save a choice, not a key press: arrow keys move the selection
 * and send nothing (a keyboard choice is sent with Enter or on leaving the dropdown), while a pick
 * with the mouse is saved at once, with its notice. Without JavaScript the Save button sends.
 */
test("arrow keys on an NDA dropdown send nothing; Enter or a mouse choice saves", async ({ page, javaScriptOn }) => {
  const investor = newAccount("nda-keys");
  // Verified, with a name and address: an NDA is marked for no one else.
  await withDatabase(E2E_DATABASE, (db) => insertUsers(db, [{ email: investor.email, named: true }]));
  await submitLogin(page, javaScriptOn, await createAdministrator());
  await expect(page).toHaveURL(/\/financing$/);

  const flagRequests: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/financing/investors/"))
      flagRequests.push(request.url());
  });
  await visit(page, `/financing?q=${encodeURIComponent(investor.email)}`, javaScriptOn);
  const sent = page.getByLabel(`NDA sent for ${investor.email}`, { exact: true });
  const signed = page.getByLabel(`NDA completed for ${investor.email}`, { exact: true });
  await expect(sent).toHaveValue("no");

  await sent.focus();
  for (const key of ["ArrowUp", "ArrowDown", "ArrowUp", "ArrowDown"]) await sent.press(key);
  await page.waitForTimeout(500);
  expect(flagRequests).toEqual([]);
  await visit(page, `/financing?q=${encodeURIComponent(investor.email)}`, javaScriptOn);
  await expect(sent).toHaveValue("no");

  if (javaScriptOn) {
    // Moved with the keyboard, then chosen with Enter: one request, and the notice.
    await sent.focus();
    await sent.press("ArrowUp");
    await expect(sent).toHaveValue("yes");
    expect(flagRequests).toEqual([]);
    await sent.press("Enter");
    await expect(page.getByText("NDA sent state changed").first()).toBeVisible();
    expect(flagRequests).toHaveLength(1);

    // A pick with the mouse is saved at once. The first notice may still be showing, so the wait is
    // for this save's own answer, not for a notice.
    const secondSave = page.waitForResponse(
      (response) => response.request().method() === "POST" && response.url().includes("/financing/investors/"),
    );
    await signed.selectOption({ label: "Yes" });
    expect((await secondSave).ok()).toBe(true);
    expect(flagRequests).toHaveLength(2);
  } else {
    await sent.selectOption({ label: "Yes" });
    await page.getByRole("button", { name: `Save: NDA sent for ${investor.email}` }).click();
    await expect(page.getByText("NDA sent state changed").first()).toBeVisible();
  }
  await visit(page, `/financing?q=${encodeURIComponent(investor.email)}`, javaScriptOn);
  await expect(sent).toHaveValue("yes");
  if (javaScriptOn) await expect(signed).toHaveValue("yes");
});
