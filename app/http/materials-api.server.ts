/**
 * The materials library as the JSON API answers it: each document with its latest version and the
 * address of its page, times as ISO strings, an administrator's view with what only they may see.
 */
import type { LibraryDocument } from "~/models/library/library-documents.server";
import type { DocumentReading, ReaderOfDocument } from "~/models/library/library-openings.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

const iso = (at: number) => new Date(at).toISOString();
const isoOrNull = (at: number | null) => (at === null ? null : iso(at));

/** Where a document opens: the investors' page of it, in a browser signed in to the portal. */
export const materialPagePath = (id: string) => `/financing/materials/${encodeURIComponent(id)}`;

export function materialAnswer(
  document: LibraryDocument,
  { forAdministrator }: { forAdministrator: boolean },
): AnswerOf<"Material"> {
  return {
    id: document.id,
    title: document.title,
    description: document.description,
    kind: document.kind,
    size: document.latest.size,
    updated: iso(document.latest.createdAt),
    version: document.latest.number,
    url: materialPagePath(document.id),
    ...(forAdministrator ? { published: document.published, audience: document.audience } : {}),
  };
}

export function readingReportAnswer(report: DocumentReading[]): AnswerOf<"ReadingReport"> {
  return {
    documents: report.map((row) => ({
      id: row.documentId,
      title: row.title,
      kind: row.kind,
      published: row.published,
      readers: row.readers,
      opens: row.opens,
      firstOpened: isoOrNull(row.firstOpenedAt),
      lastOpened: isoOrNull(row.lastOpenedAt),
    })),
  };
}

export function readersAnswer(
  document: Pick<LibraryDocument, "id" | "title">,
  readers: ReaderOfDocument[],
): AnswerOf<"MaterialReaders"> {
  return {
    id: document.id,
    title: document.title,
    readers: readers.map((reader) => ({
      id: reader.userId,
      email: reader.email,
      fullName: reader.fullName,
      opens: reader.opens,
      firstOpened: iso(reader.firstOpenedAt),
      lastOpened: iso(reader.lastOpenedAt),
    })),
  };
}
