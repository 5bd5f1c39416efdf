/**
 * The administrators' side of questions and answers: the queue (new, answered, closed), an answer given
 * privately, published (the asker not named) or both, an edit of a published answer that keeps its earlier
 * text, and closing. Each change commits with its audit row; the asker is mailed after.
 */
import { randomUUID } from "node:crypto";
import { questionEmails, questionsContent } from "~/content/questions";
import type { Actor } from "~/models/administrators/admin-result.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import { now } from "~/server/clock.server";
import { getDb, type QuestionStatus } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { trySendMail } from "~/server/mail.server";
import { questionFieldsOf, questionRows, type QuestionFields } from "./question-rows.server";
import type { AnswerQuestionInput } from "./question-schemas.server";
import type { QuestionFailure } from "./questions.server";

export type QueuedQuestion = QuestionFields & {
  askerEmail: string;
  history: { body: string; replacedAt: string }[];
};

export const QUEUE_PAGE = 50;

/** A page of the queue in one status, newest first; `before` (a time in ms) for older ones. */
export async function listQueue({
  status,
  before,
}: {
  status: QuestionStatus;
  before?: number;
}): Promise<{ questions: QueuedQuestion[]; nextBefore: number | null }> {
  const db = getDb();
  let query = questionRows()
    .innerJoin("users as u", "u.id", "q.user_id")
    .select("u.email")
    .where("q.status", "=", status)
    .limit(QUEUE_PAGE + 1);
  if (before !== undefined) query = query.where("q.created_at", "<", before);
  const rows = await query.execute();
  const shown = rows.slice(0, QUEUE_PAGE);
  const ids = shown.map((row) => row.id);
  const edits =
    ids.length === 0
      ? []
      : await db
          .selectFrom("answer_edits")
          .select(["question_id", "body", "replaced_at"])
          .where("question_id", "in", ids)
          .orderBy("replaced_at", "asc")
          .execute();
  return {
    questions: shown.map((row) => ({
      ...questionFieldsOf(row),
      askerEmail: row.email,
      history: edits
        .filter((edit) => edit.question_id === row.id)
        .map((edit) => ({ body: edit.body, replacedAt: new Date(edit.replaced_at).toISOString() })),
    })),
    nextBefore: rows.length > QUEUE_PAGE ? shown[shown.length - 1]!.created_at : null,
  };
}

const notFound: QuestionFailure = { ok: false, status: 404, message: questionsContent.errors.notFound };

/**
 * Answers: a private answer replaces the private one; a published one publishes (or, over an earlier
 * published text, edits it, which keeps the earlier text). The asker is mailed once the change is stored.
 */
export async function answerQuestion({
  actor,
  input,
  ip,
}: {
  actor: Actor;
  input: AnswerQuestionInput;
  ip?: string | null;
}): Promise<{ ok: true } | QuestionFailure> {
  const at = now();
  const asker = await changeWithAudit(async (db, record) => {
    const question = await db
      .selectFrom("questions as q")
      .innerJoin("users as u", "u.id", "q.user_id")
      .select(["q.id", "q.published_answer", "q.published_at", "u.email", "u.id as user_id"])
      .where("q.id", "=", input.id)
      .executeTakeFirst();
    if (!question) return null;
    const edits = input.publishedAnswer !== undefined && question.published_answer !== null;
    if (edits && question.published_answer !== input.publishedAnswer) {
      await db
        .insertInto("answer_edits")
        .values({
          id: randomUUID(),
          question_id: question.id,
          body: question.published_answer!,
          replaced_by: actor.id,
          replaced_at: at,
        })
        .execute();
    }
    await db
      .updateTable("questions")
      .set({
        status: "answered",
        answered_by: actor.id,
        answered_at: at,
        ...(input.privateAnswer !== undefined ? { private_answer: input.privateAnswer } : {}),
        ...(input.publishedAnswer !== undefined
          ? { published_answer: input.publishedAnswer, published_at: question.published_at ?? at }
          : {}),
      })
      .where("id", "=", question.id)
      .execute();
    const base = { actorId: actor.id, actorEmail: actor.email, targetId: question.id, ip };
    const target = { targetEmail: question.email };
    if (input.privateAnswer !== undefined) {
      record({ ...base, ...target, action: "question.answered", details: { length: input.privateAnswer.length } });
    }
    if (input.publishedAnswer !== undefined) {
      record({
        ...base,
        action: edits ? "question.answer_edited" : "question.published",
        details: { length: input.publishedAnswer.length },
      });
    }
    return question;
  });
  if (!asker) return notFound;
  const link = new URL("/financing/questions", getEnv().appUrl).href;
  await trySendMail({ to: asker.email, ...questionEmails.answered({ link }) });
  return { ok: true };
}

/** Closes a question: it leaves the new and answered lists; its answers stand. */
export async function closeQuestion({
  actor,
  id,
  ip,
}: {
  actor: Actor;
  id: string;
  ip?: string | null;
}): Promise<{ ok: true } | QuestionFailure> {
  const closed = await changeWithAudit(async (db, record) => {
    const row = await db
      .updateTable("questions")
      .set({ status: "closed" })
      .where("id", "=", id)
      .returning("id")
      .executeTakeFirst();
    if (row) record({ actorId: actor.id, actorEmail: actor.email, action: "question.closed", targetId: id, ip });
    return row;
  });
  return closed ? { ok: true } : notFound;
}
