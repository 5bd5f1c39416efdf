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
import { latestPageCountOf } from "~/models/reading/page-count.server";
import { HOUR_MS } from "~/models/throttle.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { trySendMail } from "~/server/mail.server";
import { countRateLimitRefusal } from "~/server/metrics.server";
import { hitRateLimit, type RateLimitRule } from "~/server/rate-limit.server";
import { questionFieldsOf, questionRows, type QuestionFields } from "./question-rows.server";
import type { AskQuestionInput } from "./question-schemas.server";

export type QuestionFailure = {
  ok: false;
  status: 400 | 403 | 404 | 429;
  message: string;
  field?: string;
  retryAfterSeconds?: number;
};

/** How many questions an investor may ask in an hour: each is mailed to the firm's mailbox. */
export const QUESTIONS_PER_HOUR: RateLimitRule = { limit: 10, windowMs: HOUR_MS };

export type OwnQuestion = QuestionFields & { answeredAt: string | null };

/** The ids of the published documents the user may read. */
export async function readableDocumentIds(user: PublicUser): Promise<string[]> {
  return (await listOpenableDocuments(user, null)).map((document) => document.id);
}

const errors = questionsContent.errors;

/**
 * Why the question's page cannot be asked about, if it cannot: a page needs a document, and is one of the
 * pages of its latest version (a video has none).
 */
async function pageRefusal(input: AskQuestionInput): Promise<QuestionFailure | null> {
  if (input.page === undefined) return null;
  const refuse = (message: string): QuestionFailure => ({ ok: false, status: 400, message, field: "page" });
  if (input.documentId === undefined) return refuse(errors.pageWithoutDocument);
  const pages = await latestPageCountOf(input.documentId);
  if (pages === null) return refuse(errors.pageOfVideo);
  return input.page > pages ? refuse(errors.pageBeyond(pages)) : null;
}

/**
 * Stores the question with its audit row, then mails the firm. A document the asker cannot read, or a page
 * it does not have, is a 400; past QUESTIONS_PER_HOUR a 429, with nothing stored and nothing mailed.
 */
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
    return { ok: false, status: 403, message: errors.notInvestor };
  }
  if (input.documentId !== undefined && !(await readableDocumentIds(user)).includes(input.documentId)) {
    return { ok: false, status: 400, message: errors.documentUnreadable, field: "documentId" };
  }
  const badPage = await pageRefusal(input);
  if (badPage) return badPage;
  const id = randomUUID();
  const at = now();
  const throttled = await changeWithAudit(async (db, record): Promise<QuestionFailure | null> => {
    // Counted in the question's own transaction: a question that is not stored takes none of the hour's.
    const hour = await hitRateLimit(`questions:${user.id}`, QUESTIONS_PER_HOUR, db);
    if (!hour.allowed) {
      countRateLimitRefusal("questions");
      const minutes = Math.ceil(hour.retryAfterSeconds / 60);
      return {
        ok: false,
        status: 429,
        message: errors.tooMany(QUESTIONS_PER_HOUR.limit, minutes),
        retryAfterSeconds: hour.retryAfterSeconds,
      };
    }
    await db
      .insertInto("questions")
      .values({
        id,
        user_id: user.id,
        document_id: input.documentId ?? null,
        page: input.page ?? null,
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
    return null;
  });
  if (throttled) return throttled;
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
  let query = questionRows().where("q.user_id", "=", userId).limit(200);
  if (onlyId) query = query.where("q.id", "=", onlyId);
  const rows = await query.execute();
  return rows.map((row) => ({ ...questionFieldsOf(row), answeredAt: iso(row.answered_at) }));
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
