/**
 * The administrator's investor table, with and without JavaScript: search,
 * pages, sort, CSV export, both NDA flags (with their toast), delete with
 * confirmation, and the audit page; axe on each page.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { addVerification, insertUsers, withDatabase } from "../support/outside-database";
import { createAdministrator, logIn, loggedInAccount, type TestAccount } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import { E2E_DATABASE } from "./support/server";

const SEEDED = 55;

/** Investors straight into the e2e database, each named with `tag` so a search finds exactly them. */
async function seedInvestors(tag: string, count: number) {
  const base = Date.UTC(2025, 5, 1, 12, 0, 0);
  const investors = Array.from({ length: count }, (_, i) => {
    const number = String(i).padStart(2, "0");
    return {
      email: `${tag}-${number}@example.com`,
      fullName: `${tag} Investor ${number}`,
      address: `${i} Seed Street`,
      createdAt: base + i * 60_000,
    };
  });
  await withDatabase(E2E_DATABASE, (db) => insertUsers(db, investors));
}

function tableRows(page: Page) {
  return page.locator(".investor-table tbody tr");
}

async function search(page: Page, query: string) {
  await page.getByLabel("Search by name or e-mail").fill(query);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(query)}`));
}

test.describe("the administrator's investor table", () => {
  // Axe over a 50-row table (twice without JavaScript: a scripted copy of the page) takes a while on a busy machine.
  test.describe.configure({ mode: "serial", timeout: 90_000 });
  let admin: TestAccount;
  let tag: string;
  let angelEmail: string;

  test.beforeAll(async () => {
    admin = await createAdministrator();
    // Letters only: a search for one investor's address (`<tag>-07@example.com`) matches each of its words, and
    // a tag of hex digits that held "07" matched every seeded investor's.
    tag = `seed${Array.from(randomBytes(6), (byte) => String.fromCharCode(97 + (byte % 26))).join("")}`;
    await seedInvestors(tag, SEEDED);
    // Outside the tag, so the tag's search still finds exactly the seeded investors.
    angelEmail = `m.ortega.${randomBytes(3).toString("hex")}@example.com`;
    await withDatabase(E2E_DATABASE, (db) =>
      insertUsers(db, [{ email: angelEmail, fullName: "Miguel Ángel Ortega-Sánchez", named: true }]),
    );
  });

  test("searches, pages, sorts and exports CSV", async ({ page, javaScriptOn }) => {
    await logIn(page, javaScriptOn, admin);
    await expect(page.getByRole("heading", { name: "Investors", level: 1 })).toBeVisible();
    await expectNoAxeViolations(page, "the investor table");

    await search(page, tag.toUpperCase());
    await expect(page.getByText(`${SEEDED} investors`)).toBeVisible();
    await expect(tableRows(page)).toHaveCount(50);
    // Newest first by default.
    await expect(tableRows(page).first()).toContainText(`${tag}-54@example.com`);
    await expect(tableRows(page).first()).toContainText("June 1, 2025 at 12:54:00 PM UTC");

    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Page 2" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(tableRows(page)).toHaveCount(SEEDED - 50);
    await expect(page.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");

    await page.getByRole("link", { name: "Full name" }).click();
    await expect(page).toHaveURL(/sort=name&dir=asc/);
    await expect(page.getByRole("columnheader", { name: "Full name" })).toHaveAttribute("aria-sort", "ascending");
    await expect(tableRows(page).first()).toContainText(`${tag} Investor 00`);
    await page.getByRole("link", { name: "Full name" }).click();
    await expect(page).toHaveURL(/sort=name&dir=desc/);
    await expect(page.getByRole("columnheader", { name: "Full name" })).toHaveAttribute("aria-sort", "descending");
    await expect(tableRows(page).first()).toContainText(`${tag} Investor 54`);
    await expectNoAxeViolations(page, "the sorted, searched table");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("investors.csv");
    const bytes = fs.readFileSync((await download.path())!);
    // The file opens with a UTF-8 byte order mark, so that Excel shows accented names as they are.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = bytes.subarray(3).toString("utf8").trimEnd().split("\r\n");
    expect(csv[0]).toBe('"Full name","E-mail","Address","Registration time (UTC)","NDA sent","NDA completed"');
    expect(csv).toHaveLength(SEEDED + 1);
    expect(csv[1]).toContain(`"${tag} Investor 54"`);
    // Dates in ISO 8601, UTC.
    expect(csv[1]).toMatch(/,"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z","(Yes|No)","(Yes|No)"$/);
  });

  test("finds an accented, hyphenated name by a plain word", async ({ page, javaScriptOn }) => {
    await logIn(page, javaScriptOn, admin);
    await search(page, "angel");
    await expect(tableRows(page).filter({ hasText: angelEmail })).toContainText("Miguel Ángel Ortega-Sánchez");
  });

  test("changes both NDA flags and deletes with confirmation", async ({ page, javaScriptOn }) => {
    const target = `${tag}-07@example.com`;
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    await logIn(page, javaScriptOn, admin);
    await search(page, target);
    await expect(tableRows(page)).toHaveCount(1);

    const sent = page.getByLabel(`NDA sent for ${target}`, { exact: true });
    const signed = page.getByLabel(`NDA completed for ${target}`, { exact: true });
    await expect(sent).toHaveValue("no");
    await expect(signed).toHaveValue("no");

    async function choose(select: typeof sent, label: string, value: "Yes" | "No") {
      if (!javaScriptOn) {
        await select.selectOption({ label: value });
        await page.getByRole("button", { name: `Save: ${label}` }).click();
        return;
      }
      // The dropdown shows the new value at once, before the server has it: wait for the answer, or a reload
      // right after could cancel the change on its way (as a slow server showed).
      const saved = page.waitForResponse(
        (response) => response.request().method() === "POST" && response.url().includes("/financing/investors/"),
      );
      await select.selectOption({ label: value });
      expect((await saved).status()).toBe(204);
    }

    await choose(signed, `NDA completed for ${target}`, "Yes");
    await expect(page.getByText("NDA Sign state changed").first()).toBeVisible();
    await expect(signed).toHaveValue("yes");
    await expect(sent).toHaveValue("yes");
    const mail = await waitForMail(target, /materials are open/i);
    expect(mail.text).toContain("/financing/materials");
    await expect(page).toHaveURL(/[?&]q=/);

    await choose(sent, `NDA sent for ${target}`, "No");
    await expect(sent).toHaveValue("no");
    await expect(signed).toHaveValue("no");
    await page.reload();
    await expect(page.getByLabel(`NDA sent for ${target}`, { exact: true })).toHaveValue("no");
    await expect(page.getByLabel(`NDA completed for ${target}`, { exact: true })).toHaveValue("no");

    const deleteControl = page.getByRole(javaScriptOn ? "button" : "link", { name: `Delete ${target}` });
    if (javaScriptOn) {
      let question = "";
      page.once("dialog", (dialog) => {
        question = dialog.message();
        void dialog.accept();
      });
      await deleteControl.click();
      await expect(page.getByText("0 investors")).toBeVisible();
      // The specification's question, and under it whom it is about.
      expect(question).toBe(`Do you want to delete this entry?\n\n${tag} Investor 07 (${target})`);
    } else {
      await deleteControl.click();
      await expect(page.getByText("Do you want to delete this entry?")).toBeVisible();
      await expectNoAxeViolations(page, "the delete confirmation page");
      await page.getByRole("button", { name: "Delete" }).click();
      await expect(page).toHaveURL(/\/financing\?q=/);
      await expect(page.getByText("0 investors")).toBeVisible();
    }
    await expect(page.getByText(target)).toHaveCount(0);

    await visit(page, `/financing/audit?investor=${encodeURIComponent(target)}`, javaScriptOn);
    await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
    await expect(page.getByText(/^Hash chain: Verified: unaltered up to row \d+ \(recorded .+ UTC\)\.$/)).toBeVisible();
    const rows = page.locator(".audit-log__row");
    const deleted = rows.filter({ hasText: `Deleted the investor ${target}` });
    await expect(deleted).toHaveCount(1);
    await expect(deleted).toContainText(admin.email);
    await expect(rows.filter({ hasText: `Marked the NDA signed for ${target}` })).toHaveCount(1);
    await expectNoAxeViolations(page, "the audit page");
    expect(consoleErrors).toEqual([]);
  });

  test("the delete confirmation page: Cancel keeps the investor", async ({ page, javaScriptOn }) => {
    const target = `${tag}-08@example.com`;
    await logIn(page, javaScriptOn, admin);
    const { id } = await withDatabase(E2E_DATABASE, (db) =>
      db.selectFrom("users").select("id").where("email", "=", target).executeTakeFirstOrThrow(),
    );
    const url = `/financing/investors/${id}/delete?returnTo=${encodeURIComponent(`/financing?q=${target}`)}`;
    await visit(page, url, javaScriptOn);
    await expect(page.getByText("Do you want to delete this entry?")).toBeVisible();
    await expectNoAxeViolations(page, "the delete confirmation page");
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/financing\?q=/);
    await expect(tableRows(page)).toHaveCount(1);
  });

  test("fits a laptop's 1280 px with a long company name, a four-line address and a verification", async ({
    page,
    javaScriptOn,
  }) => {
    const wide = `wide${randomBytes(4).toString("hex")}`;
    const company = `${wide} `.padEnd(120, "Northwind Pacific Infrastructure Capital Partners Holdings ").trimEnd();
    const lines = [
      "Suite 4100, Tower Two, International Finance Centre",
      "8 Finance Street, Central District",
      "Hong Kong Special Administrative Region",
      "People's Republic of China",
    ];
    const email = `${wide}.investor-relations@example.com`;
    await withDatabase(E2E_DATABASE, (db) =>
      insertUsers(db, [
        { email, fullName: company, address: lines.join(" "), addressLines: lines.join("\n"), named: true, sent: true },
      ]).then(() => addVerification(db, email, Date.UTC(2031, 2, 12))),
    );
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(page, javaScriptOn, admin);
    await visit(page, `/financing?q=${wide}`, javaScriptOn);
    await expect(tableRows(page)).toHaveCount(1);
    // The whole name and address are on the page, wrapped, not cut.
    await expect(tableRows(page).first()).toContainText(company);
    await expect(tableRows(page).first().locator(".address-lines__line")).toHaveText(lines);
    await expect(tableRows(page).first()).toContainText("Verified until 2031-03-12");
    const outside = await page.evaluate(() => {
      const viewport = document.documentElement.clientWidth;
      const scroll = document.querySelector<HTMLElement>(".investor-table__scroll")!;
      const cells = [...document.querySelectorAll<HTMLElement>(".investor-table th, .investor-table td")];
      return {
        pageScrolls: document.documentElement.scrollWidth > viewport,
        tableScrolls: scroll.scrollWidth > scroll.clientWidth,
        cells: cells
          .filter((cell) => cell.getBoundingClientRect().right > viewport + 0.5)
          .map((cell) => cell.dataset.label ?? cell.textContent),
      };
    });
    expect(outside).toEqual({ pageScrolls: false, tableScrolls: false, cells: [] });
  });
});

test("an investor is refused at the administrator pages", async ({ page, javaScriptOn }) => {
  await loggedInAccount(page, javaScriptOn, "not-admin");
  for (const url of ["/financing/audit", "/financing/audit.jsonl", "/financing/investors.csv"]) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(403);
  }
  await page.goto("/financing/audit");
  await expect(page.getByRole("heading", { name: "You do not have permission to see this page." })).toBeVisible();
  await expect(page.locator(".audit-log__row")).toHaveCount(0);
});
