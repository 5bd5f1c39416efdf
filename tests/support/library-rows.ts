import { getDb, type Database } from "~/server/db.server";

/** How many rows `table` holds now. */
export async function countRows(table: keyof Database) {
  const row = await getDb()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many rows the library holds in each of its tables: the same before and after a refused upload or change. */
export async function storedLibraryRows() {
  return {
    blobs: await countRows("blobs"),
    chunks: await countRows("blob_chunks"),
    documents: await countRows("documents"),
    versions: await countRows("document_versions"),
    audience: await countRows("document_audience"),
  };
}
