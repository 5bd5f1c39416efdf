/**
 * The reading report's edge: a document's id read from the address (malformed: 400; unknown: 404), and
 * the page of readers a report asks for.
 */
import { readingContent } from "~/content/library-reading";
import { investorIdSchema } from "~/models/investors/investor-record.server";
import { getLibraryDocument, type LibraryDocumentDetail } from "~/models/library/library-documents.server";

const TEXT_HEADERS = { "Content-Type": "text/plain; charset=utf-8" };

/** The document the address names: a malformed id is a bad request, an unknown one is not found. */
export async function documentOfAddress(params: { id?: string }): Promise<LibraryDocumentDetail> {
  // Ids are made as investors' are (UUIDs): the same shape is checked.
  const id = investorIdSchema.safeParse(params.id);
  if (!id.success) throw new Response(readingContent.errors.idInvalid, { status: 400, headers: TEXT_HEADERS });
  const document = await getLibraryDocument(id.data);
  if (!document) throw new Response(readingContent.errors.notFound, { status: 404, headers: TEXT_HEADERS });
  return document;
}

/** The page of a document's readers the address asks for (`?page=`, from 1); a malformed one is a bad request. */
export function readersPageOf(request: Request): number {
  const page = new URL(request.url).searchParams.getAll("page");
  if (page.length === 0) return 1;
  if (page.length > 1 || !/^[1-9]\d{0,5}$/.test(page[0]))
    throw new Response(readingContent.errors.pageInvalid, { status: 400, headers: TEXT_HEADERS });
  return Number(page[0]);
}
