/**
 * A published PDF of the library with as many pages as a test needs, written straight into the e2e
 * server's database (one blob chunk, one version): what an administrator's upload would leave.
 */
import { createHash, randomUUID } from "node:crypto";
import { numberedPdf } from "../../support/numbered-pdf";
import { withDatabase } from "../../support/outside-database";
import { E2E_DATABASE } from "./server";

export async function publishedPdf(title: string, pages: number, { downloadable = true } = {}): Promise<string> {
  const bytes = await numberedPdf(pages);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const [documentId, blobId, at] = [randomUUID(), randomUUID(), Date.now()];
  await withDatabase(E2E_DATABASE, async (db) => {
    await db
      .insertInto("blobs")
      .values({ id: blobId, size: bytes.byteLength, sha256, chunk_count: 1, complete: 1, created_at: at })
      .execute();
    await db.insertInto("blob_chunks").values({ blob_id: blobId, chunk_index: 0, data: bytes }).execute();
    await db
      .insertInto("documents")
      .values({
        id: documentId,
        title,
        description: "",
        kind: "pdf",
        position: 500,
        audience: "signed",
        published: 1,
        downloadable: downloadable ? 1 : 0,
        created_by: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db
      .insertInto("document_versions")
      .values({
        id: randomUUID(),
        document_id: documentId,
        number: 1,
        file_name: `${title}.pdf`,
        content_type: "application/pdf",
        size: bytes.byteLength,
        sha256,
        blob_id: blobId,
        captions_blob_id: null,
        uploaded_by: null,
        created_at: at,
      })
      .execute();
  });
  return documentId;
}
