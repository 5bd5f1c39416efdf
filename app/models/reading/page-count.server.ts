/**
 * A PDF version's pages, counted from its file the first time they are needed (a reader's time reported
 * for it, a question about one of its pages) and kept on the version (migration 021), so a report or a
 * question naming a page beyond the document is refused.
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

/** The pages of a document's latest version: null for a video, which has none (or a document that is gone). */
export async function latestPageCountOf(documentId: string): Promise<number | null> {
  const latest = await getDb()
    .selectFrom("document_versions as v")
    .innerJoin("documents as d", "d.id", "v.document_id")
    .select(["v.id", "v.blob_id", "v.page_count", "d.kind"])
    .where("v.document_id", "=", documentId)
    .orderBy("v.number", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!latest || latest.kind !== "pdf") return null;
  return pageCountOf({ id: latest.id, blobId: latest.blob_id, pageCount: latest.page_count });
}
