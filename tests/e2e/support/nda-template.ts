/**
 * The firm's NDA template written straight into a running server's database (one blob chunk, one
 * `nda_templates` row): what an administrator's upload on /financing/nda would leave, without its audit row.
 * Each version has fixed ids, so two workers seeding the same version at once leave one row, not two
 * versions (a second would supersede the copy the first worker's investor is reviewing).
 */
import { createHash } from "node:crypto";
import { numberedPdf } from "../../support/numbered-pdf";
import { withDatabase, type DatabaseLocation } from "../../support/outside-database";

/** Template version `number` (1 by default) with `pages` pages, unless that version is there already. */
export async function seedNdaTemplate(location: DatabaseLocation, { number = 1, pages = 2 } = {}) {
  const bytes = await numberedPdf(pages);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const id = `e2e-nda-template-${number}`;
  const blobId = `${id}-blob`;
  const at = Date.now();
  await withDatabase(location, (db) =>
    db.transaction().execute(async (trx) => {
      await trx
        .insertInto("blobs")
        .values({ id: blobId, size: bytes.byteLength, sha256, chunk_count: 1, complete: 1, created_at: at })
        .onConflict((conflict) => conflict.doNothing())
        .execute();
      await trx
        .insertInto("blob_chunks")
        .values({ blob_id: blobId, chunk_index: 0, data: bytes })
        .onConflict((conflict) => conflict.doNothing())
        .execute();
      await trx
        .insertInto("nda_templates")
        .values({
          id,
          number,
          file_name: `nda-v${number}.pdf`,
          size: bytes.byteLength,
          sha256,
          page_count: pages,
          blob_id: blobId,
          uploaded_by: null,
          created_at: at,
        })
        .onConflict((conflict) => conflict.doNothing())
        .execute();
    }),
  );
}
