/**
 * The firm's NDA as a template: each upload a numbered version, its file a blob as a library document's
 * is. A version is kept only once it renders as an investor's copy, so no investor is ever offered one
 * that fails. The newest is offered to everyone who has not signed (nda-copies.server.ts).
 */
import { randomUUID } from "node:crypto";
import { PDFDocument } from "pdf-lib";
import { ndaMessages } from "~/content/nda";
import { MATERIAL_LIMITS } from "~/lib/material-limits";
import type { Actor } from "~/models/administrators/admin-result.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import type { Failure } from "~/models/failure";
import { looksLikePdf } from "~/models/library/material-file.server";
import { completeBlob, deleteBlob, storeMadeBlob } from "~/server/blob-store.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { renderCopy } from "./nda-pdf.server";

export type NdaTemplate = {
  id: string;
  number: number;
  sha256: string;
  pageCount: number;
  blobId: string;
  createdAt: number;
};

export async function currentNdaTemplate(): Promise<NdaTemplate | null> {
  const row = await getDb()
    .selectFrom("nda_templates")
    .select(["id", "number", "sha256", "page_count", "blob_id", "created_at"])
    .orderBy("number", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? toTemplate(row) : null;
}

export async function ndaTemplateById(id: string): Promise<NdaTemplate | null> {
  const row = await getDb()
    .selectFrom("nda_templates")
    .select(["id", "number", "sha256", "page_count", "blob_id", "created_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toTemplate(row) : null;
}

function toTemplate(row: {
  id: string;
  number: number;
  sha256: string;
  page_count: number;
  blob_id: string;
  created_at: number;
}): NdaTemplate {
  return {
    id: row.id,
    number: Number(row.number),
    sha256: row.sha256,
    pageCount: Number(row.page_count),
    blobId: row.blob_id,
    createdAt: Number(row.created_at),
  };
}

export type TemplateResult = { ok: true; template: NdaTemplate } | Failure<400 | 413 | 415>;

/** Keeps a new version of the NDA: a PDF that pdf-lib reads and that renders as a copy. */
export async function addNdaTemplate(
  { bytes, fileName }: { bytes: Uint8Array; fileName: string },
  actor: Actor,
): Promise<TemplateResult> {
  if (!looksLikePdf(bytes.subarray(0, 8))) return { ok: false, status: 415, message: ndaMessages.templateNotPdf };
  if (bytes.byteLength > MATERIAL_LIMITS.pdf) return { ok: false, status: 413, message: ndaMessages.templateNotPdf };
  let pageCount: number;
  try {
    pageCount = (await PDFDocument.load(bytes)).getPageCount();
    await renderCopy(bytes, {
      firmName: "Firm",
      templateNumber: 1,
      templateSha256: "0".repeat(64),
      fullName: "Name",
      addressLines: ["Address"],
      email: "investor@example.com",
      offeredAt: new Date(now()),
    });
  } catch {
    return { ok: false, status: 400, message: ndaMessages.templateUnreadable };
  }
  const blob = await storeMadeBlob(bytes);
  try {
    const template = await changeWithAudit(async (db, record) => {
      const latest = await db
        .selectFrom("nda_templates")
        .select((eb) => eb.fn.max("number").as("number"))
        .executeTakeFirst();
      const row = {
        id: randomUUID(),
        number: Number(latest?.number ?? 0) + 1,
        file_name: fileName,
        size: blob.size,
        sha256: blob.sha256,
        page_count: pageCount,
        blob_id: blob.id,
        uploaded_by: actor.id,
        created_at: now(),
      };
      await db.insertInto("nda_templates").values(row).execute();
      await completeBlob(db, blob.id);
      record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: "nda.template.uploaded",
        details: { version: row.number, sha256: row.sha256, pages: pageCount, fileName },
      });
      return toTemplate(row);
    });
    return { ok: true, template };
  } catch (error) {
    await deleteBlob(blob.id);
    throw error;
  }
}
