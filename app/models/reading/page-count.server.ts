/**
 * A PDF version's pages, counted from its file the first time a reader's time is reported for it and kept
 * on the version (migration 021), so a report naming a page beyond the document is refused.
 */
import { PDFDocument } from "pdf-lib";
import { readWholeBlob } from "~/server/blob-store.server";
import { getDb } from "~/server/db.server";

export async function pageCountOf(version: { id: string; blobId: string; pageCount: number | null }) {
  if (version.pageCount !== null) return version.pageCount;
  // Every library PDF was read whole when it was uploaded (it must be stampable), so it loads here.
  const pdf = await PDFDocument.load(await readWholeBlob(version.blobId), { updateMetadata: false });
  const pages = pdf.getPageCount();
  await getDb().updateTable("document_versions").set({ page_count: pages }).where("id", "=", version.id).execute();
  return pages;
}
