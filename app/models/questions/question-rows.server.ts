/**
 * The one select of questions both lists read, the investor's own and the administrators' queue: each
 * question with the title of the document it is about, newest first, and the fields they both show.
 */
import { getDb, type QuestionStatus, type QuestionsTable } from "~/server/db.server";

/** The questions with their document's title, newest first; each list adds its own filter, joins and limit. */
export function questionRows() {
  return getDb()
    .selectFrom("questions as q")
    .leftJoin("documents as d", "d.id", "q.document_id")
    .select([
      "q.id",
      "q.body",
      "q.page",
      "q.status",
      "q.private_answer",
      "q.published_answer",
      "q.created_at",
      "q.answered_at",
      "d.title",
    ])
    .orderBy("q.created_at", "desc")
    .orderBy("q.id", "desc");
}

export type QuestionFields = {
  id: string;
  body: string;
  documentTitle: string | null;
  page: number | null;
  status: QuestionStatus;
  privateAnswer: string | null;
  publishedAnswer: string | null;
  askedAt: string;
};

type QuestionRow = Pick<
  QuestionsTable,
  "id" | "body" | "page" | "status" | "private_answer" | "published_answer" | "created_at"
> & { title: string | null };

/** The fields both lists show, from a row of `questionRows`. */
export function questionFieldsOf(row: QuestionRow): QuestionFields {
  return {
    id: row.id,
    body: row.body,
    documentTitle: row.title ?? null,
    page: row.page,
    status: row.status,
    privateAnswer: row.private_answer,
    publishedAnswer: row.published_answer,
    askedAt: new Date(row.created_at).toISOString(),
  };
}
