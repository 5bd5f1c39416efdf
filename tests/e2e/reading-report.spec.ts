/**
 * Who read what, with and without JavaScript: an investor whose NDA is signed opens a document three
 * times; an administrator sees the counts on the reading report, the document's readers and the
 * investor's page, and downloads the readers' CSV; they choose their alert e-mails, and trace a copy by its
 * download id and by an uploaded PDF; each page axe-clean, no sideways scroll at 375 px.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { PDFDocument } from "pdf-lib";
import { insertUsers, withDatabase } from "../support/outside-database";
import { createAdministrator, logIn } from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { E2E_DATABASE } from "./support/server";

test.describe.configure({ timeout: 90_000 });

const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);
/** The portal's date format (app/lib/investor-table.ts). */
const shown = (at: number) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "long", timeZone: "UTC" }).format(new Date(at));

/**
 * A document of this test's own (its version shares the first library's PDF: no page here reads the file),
 * and an investor whose NDA is signed who opened it three times, as /financing/materials/:id records it.
 */
async function seedOpenings(tag: string) {
  const openingIds = [randomUUID(), randomUUID(), randomUUID()];
  return withDatabase(E2E_DATABASE, async (db) => {
    const [investor] = await insertUsers(db, [
      { email: `${tag}@example.com`, fullName: `${tag} Reader`, address: "1 Reading Lane", signed: true },
    ]);
    const pdf = await db
      .selectFrom("document_versions as v")
      .innerJoin("documents as d", "d.id", "v.document_id")
      .select(["v.blob_id", "v.size", "v.sha256"])
      .where("d.kind", "=", "pdf")
      .executeTakeFirstOrThrow();
    const last = await db
      .selectFrom("documents")
      .select((eb) => eb.fn.max("position").as("position"))
      .executeTakeFirstOrThrow();
    const documentId = randomUUID();
    const versionId = randomUUID();
    await db
      .insertInto("documents")
      .values({
        id: documentId,
        title: `Deck ${tag}`,
        description: "",
        kind: "pdf",
        position: Number(last.position ?? 0) + 1,
        audience: "signed",
        published: 1,
        created_by: null,
        created_at: T0,
        updated_at: T0,
      })
      .execute();
    await db
      .insertInto("document_versions")
      .values({
        id: versionId,
        document_id: documentId,
        number: 1,
        file_name: "deck.pdf",
        content_type: "application/pdf",
        size: Number(pdf.size),
        sha256: pdf.sha256,
        blob_id: pdf.blob_id,
        captions_blob_id: null,
        uploaded_by: null,
        created_at: T0,
      })
      .execute();
    await db
      .insertInto("document_opens")
      .values(
        [0, 1, 2].map((n) => ({
          id: openingIds[n],
          document_id: documentId,
          version_id: versionId,
          user_id: investor.id,
          opened_at: T0 + n * HOUR,
        })),
      )
      .execute();
    return { investor, documentId, openingIds };
  });
}

async function fitsAndIsClean(page: Page, what: string) {
  expect(await sidewaysScroll(page), `sideways scroll on ${what}`).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, what);
}

test("an administrator sees who read what: the report, a document's readers, the investor's page and the CSV", async ({
  page,
  javaScriptOn,
}) => {
  const tag = `read${randomBytes(3).toString("hex")}`;
  const { investor, documentId } = await seedOpenings(tag);
  await logIn(page, javaScriptOn, await createAdministrator());
  await page.setViewportSize({ width: 375, height: 740 });

  await visit(page, "/financing/library/reading", javaScriptOn);
  await expect(page.getByRole("heading", { level: 1, name: "Who read what" })).toBeVisible();
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: `Deck ${tag}` }) });
  await expect(row.getByRole("cell")).toHaveText(["PDF", "Yes", "1", "3", shown(T0), shown(T0 + 2 * HOUR)]);
  await fitsAndIsClean(page, "the reading report at 375 px");

  await row.getByRole("link", { name: `Deck ${tag}` }).click();
  await expect(page).toHaveURL(new RegExp(`/financing/library/reading/${documentId}$`));
  await expect(page.getByRole("heading", { level: 1, name: `Who opened "Deck ${tag}"` })).toBeVisible();
  await expect(page.getByText("1 investor, 3 openings in all.")).toBeVisible();
  const reader = page.getByRole("row").filter({ hasText: `${tag} Reader` });
  await expect(reader.getByRole("cell")).toHaveText([investor.email, "3", shown(T0), shown(T0 + 2 * HOUR)]);
  await fitsAndIsClean(page, "a document's readers at 375 px");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("document-readers.csv");
  const csv = readFileSync((await download.path())!, "utf8");
  expect(csv.replace(/^\uFEFF/, "").split("\r\n")).toEqual([
    `"Full name","E-mail","Opens","First opened (UTC)","Last opened (UTC)"`,
    `"${tag} Reader","${investor.email}","3","${new Date(T0).toISOString()}","${new Date(T0 + 2 * HOUR).toISOString()}"`,
    "",
  ]);

  await reader.getByRole("link", { name: investor.email }).click();
  await expect(page).toHaveURL(new RegExp(`/financing/investors/${investor.id}$`));
  const opened = page.getByRole("region", { name: "Materials opened" });
  const reading = opened.getByRole("row").filter({ has: page.getByRole("link", { name: `Deck ${tag}` }) });
  await expect(reading.getByRole("cell")).toHaveText(["3", shown(T0), shown(T0 + 2 * HOUR)]);
  await expect(opened.getByRole("link", { name: "Download CSV" })).toHaveAttribute(
    "href",
    `/financing/investors/${investor.id}/readings.csv`,
  );
  await fitsAndIsClean(page, "the investor's page with the materials opened at 375 px");
});

test("an administrator chooses their alert e-mails, and traces a copy by its download id and by a PDF", async ({
  page,
  javaScriptOn,
}) => {
  const tag = `trace${randomBytes(3).toString("hex")}`;
  const { openingIds } = await seedOpenings(tag);
  await logIn(page, javaScriptOn, await createAdministrator());
  await page.setViewportSize({ width: 375, height: 740 });

  await visit(page, "/financing/alerts", javaScriptOn);
  await expect(page.getByRole("heading", { level: 1, name: "E-mail alerts" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("You are sent no alert e-mails.");
  await page.getByRole("radio", { name: "A daily digest" }).check();
  await page.getByRole("combobox", { name: "Hour of the digest (UTC)" }).selectOption("17");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Your alert e-mails are saved. You are sent a daily digest at 17:00 UTC.",
  );
  await expect(page.getByRole("radio", { name: "A daily digest" })).toBeChecked();
  await fitsAndIsClean(page, "the alert e-mails at 375 px");

  await visit(page, "/financing/trace", javaScriptOn);
  await expect(page.getByRole("heading", { level: 1, name: "Trace a copy" })).toBeVisible();
  await fitsAndIsClean(page, "the trace page at 375 px");
  await page.getByRole("textbox", { name: "Download ID" }).fill(openingIds[1].toUpperCase());
  await page.getByRole("button", { name: "Look up", exact: true }).click();
  const result = page.getByRole("status").filter({ has: page.getByRole("heading", { name: "Whose copy it is" }) });
  await expect(result.getByRole("definition")).toHaveText([
    `${tag} Reader <${tag}@example.com>`,
    shown(T0 + HOUR),
    `Deck ${tag}`,
    "1",
    "Not recorded",
    openingIds[1],
  ]);
  await fitsAndIsClean(page, "a traced copy at 375 px");

  const elsewhere = await PDFDocument.create();
  elsewhere.addPage().drawText("A memorandum from elsewhere", { y: 700 });
  await page.getByLabel("PDF file").setInputFiles({
    name: "found.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(await elsewhere.save()),
  });
  await page.getByRole("button", { name: "Read and look up" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Not a copy from this portal." })).toBeVisible();
  await fitsAndIsClean(page, "a PDF that is no copy at 375 px");

  await page
    .getByLabel("PDF file")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("notes") });
  await page.getByRole("button", { name: "Read and look up" }).click();
  await expect(page.getByRole("alert")).toHaveText("This file is not a PDF. Upload the PDF file itself.");
});
