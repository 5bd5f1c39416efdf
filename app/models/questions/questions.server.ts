/**
 * An investor's questions (docs/decisions/0037): asked about the offering or about a document they can
 * read (and a page of it), mailed to the firm's investors mailbox, shown back to the asker with the
 * firm's answers; and the answers the firm published, to everyone who can read the document they concern.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { firm } from "~/content/firm";
import { questionEmails, questionsContent } from "~/content/questions";
import type { PublicUser } from "~/models/account/user.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import { canSeeMaterials } from "~/models/library/access.server";
import { listOpenableDocuments } from "~/models/library/library-access.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { trySendMail } from "~/server/mail.server";
import type { AskQuestionInput } from "./question-schemas.server";

export type QuestionFailure = { ok: false; status: 400 | 403 | 404; message: string; field?: string };

export type OwnQuestion = {
  id: string;
  body: string;
  documentTitle: string | null;
  page: number | null;
  status: "new" | "answered" | "closed";
  privateAnswer: string | null;
  publishedAnswer: string | null;
  askedAt: string;
  answeredAt: string | null;
};

/** The ids of the published documents the user may read. */
export async function readableDocumentIds(user: PublicUser): Promise<string[]> {
  return (await listOpenableDocuments(user, null)).map((document) => document.id);
}

/** Stores the question with its audit row, then mails the firm; a document the asker cannot read is a 400. */
export async function askQuestion({
  user,
  input,
  ip,
}: {
  user: PublicUser;
  input: AskQuestionInput;
  ip?: string | null;
}): Promise<{ ok: true; question: OwnQuestion } | QuestionFailure> {
  if (user.role.name !== "investor" || !canSeeMaterials(user)) {
    return { ok: false, status: 403, message: questionsContent.errors.notInvestor };
  }
  if (input.documentId !== undefined && !(await readableDocumentIds(user)).includes(input.documentId)) {
    return { ok: false, status: 400, message: questionsContent.errors.documentUnreadable, field: "documentId" };
  }
  const id = randomUUID();
  const at = now();
  await changeWithAudit(async (db, record) => {
    await db
      .insertInto("questions")
      .values({
        id,
        user_id: user.id,
        document_id: input.documentId ?? null,
        page: input.documentId ? (input.page ?? null) : null,
        body: input.body,
        status: "new",
        private_answer: null,
        published_answer: null,
        answered_by: null,
        answered_at: null,
        published_at: null,
        created_at: at,
      })
      .execute();
    record({
      actorId: user.id,
      actorEmail: user.email,
      action: "question.asked",
      targetId: id,
      details: { documentId: input.documentId ?? null, page: input.page ?? null, length: input.body.length },
      ip,
    });
  });
  const link = new URL("/financing/question-queue", getEnv().appUrl).href;
  await trySendMail({
    to: firm.mailboxes.investors,
    replyTo: user.email,
    ...questionEmails.asked({ email: user.email, question: input.body, link }),
  });
  const [question] = await listOwnQuestions(user.id, id);
  return { ok: true, question: question! };
}

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** The investor's own questions, newest first (or the one with `onlyId`); never anyone else's. */
export async function listOwnQuestions(userId: string, onlyId?: string): Promise<OwnQuestion[]> {
  let query = getDb()
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
    .where("q.user_id", "=", userId)
    .orderBy("q.created_at", "desc")
    .orderBy("q.id", "desc")
    .limit(200);
  if (onlyId) query = query.where("q.id", "=", onlyId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    body: row.body,
    documentTitle: row.title ?? null,
    page: row.page,
    status: row.status,
    privateAnswer: row.private_answer,
    publishedAnswer: row.published_answer,
    askedAt: iso(row.created_at)!,
    answeredAt: iso(row.answered_at),
  }));
}

export type PublishedAnswer = {
  id: string;
  question: string;
  answer: string;
  documentTitle: string | null;
  page: number | null;
  publishedAt: string;
  edited: boolean;
};

const PUBLISHED_SHOWN = 100;

/**
 * The answers published to this reader, newest first: those about the offering in general and those about
 * a document they can read; `q` keeps those whose question or answer holds it. The asker is never named.
 */
export async function listPublishedAnswers(user: PublicUser, q = ""): Promise<PublishedAnswer[]> {
  const readable = await readableDocumentIds(user);
  let query = getDb()
    .selectFrom("questions as q")
    .leftJoin("documents as d", "d.id", "q.document_id")
    .select(["q.id", "q.body", "q.published_answer", "q.page", "q.published_at", "d.title"])
    .select((eb) =>
      eb.exists(eb.selectFrom("answer_edits as e").select("e.id").whereRef("e.question_id", "=", "q.id")).as("edited"),
    )
    .where("q.published_at", "is not", null)
    .where((eb) =>
      readable.length > 0
        ? eb.or([eb("q.document_id", "is", null), eb("q.document_id", "in", readable)])
        : eb("q.document_id", "is", null),
    )
    .orderBy("q.published_at", "desc")
    .orderBy("q.id", "desc")
    .limit(PUBLISHED_SHOWN);
  if (q) {
    const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(
      sql<boolean>`(lower(q.body) like ${pattern} escape '\\' or lower(q.published_answer) like ${pattern} escape '\\')`,
    );
  }
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    question: row.body,
    answer: row.published_answer ?? "",
    documentTitle: row.title ?? null,
    page: row.page,
    publishedAt: iso(row.published_at)!,
    edited: Boolean(row.edited),
  }));
}
