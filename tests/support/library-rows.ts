import { getDb } from "~/server/db.server";

type LibraryTable = "blobs" | "blob_chunks" | "documents" | "document_versions" | "document_audience";

async function count(table: LibraryTable) {
  const row = await getDb()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many rows the library holds in each of its tables: the same before and after a refused upload or change. */
export async function storedLibraryRows() {
  return {
    blobs: await count("blobs"),
    chunks: await count("blob_chunks"),
    documents: await count("documents"),
    versions: await count("document_versions"),
    audience: await count("document_audience"),
  };
}
