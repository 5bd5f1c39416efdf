/**
 * The API's calls for what follows the materials (docs/decisions/0037): an investor's questions,
 * qualification and indication of interest; the administrators' queue, verifications and pipeline. Each
 * answers 404 while the firm has its part turned off. api-contract.server.ts lists them with the others.
 */
import { z } from "zod";
import { interestSchema } from "~/models/interest/interest-schemas.server";
import { qualificationStatementSchema, verificationSchema } from "~/models/qualification/qualification-schemas.server";
import {
  answerBodySchema,
  askQuestionSchema,
  publishedQuerySchema,
  queueQuerySchema,
} from "~/models/questions/question-schemas.server";
import { QUESTIONS_PER_HOUR } from "~/models/questions/questions.server";
import type { Answer, AnswerHeader, ApiOperation } from "./api-contract.server";

const iso = z.iso.datetime();
const questionStatus = z.enum(["new", "answered", "closed"]);

export const ownQuestionSchema = z.object({
  id: z.string(),
  body: z.string(),
  documentTitle: z.string().nullable(),
  page: z.number().int().nullable(),
  status: questionStatus,
  privateAnswer: z.string().nullable().meta({ description: "The firm's answer to the asker alone." }),
  publishedAnswer: z.string().nullable().meta({ description: "The firm's answer as published to every reader." }),
  askedAt: iso,
  answeredAt: iso.nullable(),
});

export const afterMaterialsShapes = {
  OwnQuestions: z.object({ questions: z.array(ownQuestionSchema).meta({ description: "Newest first." }) }),
  AskedQuestion: z.object({ question: ownQuestionSchema }),
  PublishedAnswers: z.object({
    answers: z
      .array(
        z.object({
          id: z.string(),
          question: z.string(),
          answer: z.string(),
          documentTitle: z.string().nullable(),
          page: z.number().int().nullable(),
          publishedAt: iso,
          edited: z.boolean().meta({ description: "Whether the answer was edited since it was published." }),
        }),
      )
      .meta({ description: "Newest first; the askers are never named." }),
  }),
  QuestionQueue: z.object({
    questions: z.array(
      ownQuestionSchema.omit({ answeredAt: true }).extend({
        askerEmail: z.string(),
        history: z
          .array(z.object({ body: z.string(), replacedAt: iso }))
          .meta({ description: "The published answer's earlier texts, oldest first." }),
      }),
    ),
    nextBefore: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Send it back as `before` for older questions; null when there are none." }),
  }),
  Qualification: z.object({
    statements: z
      .array(z.object({ category: z.string(), statedOn: z.string(), recordedAt: iso }))
      .meta({ description: "The investor's statements, newest first: the first stands." }),
    verifications: z
      .array(
        z.object({
          id: z.string(),
          method: z.string(),
          verifiedOn: z.string(),
          note: z.string(),
          fileName: z.string().nullable(),
          expiresAt: iso,
          expired: z.boolean(),
          recordedAt: iso,
        }),
      )
      .meta({ description: "The firm's verifications, newest first: the first stands until it expires." }),
  }),
  Interest: z.object({
    indications: z
      .array(
        z.object({
          amount: z.number().int().nullable().meta({ description: "Whole U.S. dollars; null for a withdrawal." }),
          low: z.number().int().nullable(),
          high: z.number().int().nullable(),
          note: z.string(),
          withdrawn: z.boolean(),
          at: iso,
        }),
      )
      .meta({ description: "Newest first: the first stands." }),
    notice: z.string().meta({ description: "The firm's words: an indication is not an offer or a commitment." }),
  }),
  Pipeline: z.object({
    stages: z.array(
      z.object({
        stage: z.string(),
        count: z.number().int(),
        conversion: z
          .number()
          .nullable()
          .meta({ description: "The share of the stage before that reached this one, 0 to 1; null for the first." }),
      }),
    ),
    interest: z.object({
      sum: z.number().int().meta({ description: "The standing indications' amounts, in U.S. dollars." }),
      count: z.number().int(),
      byVerification: z.array(z.object({ verification: z.string(), sum: z.number().int(), count: z.number().int() })),
    }),
    weeks: z.array(
      z.object({
        week: z.string().meta({ description: "The Monday the week begins (UTC), YYYY-MM-DD." }),
        signedUp: z.number().int().meta({ description: "Investors who signed up that week." }),
        verified: z.number().int().meta({ description: "Addresses verified that week." }),
        indicated: z
          .number()
          .int()
          .meta({ description: "Investors whose first indication of interest came that week." }),
      }),
    ),
  }),
} as const;

/** What the calls' answers are built from, passed in by api-contract.server.ts (which lists these calls). */
type Refusals = {
  refused: (description: string, headers?: AnswerHeader[]) => Answer;
  badInput: Answer;
  notSignedIn: Answer;
  bodyRefusals: (forbidden?: string) => Record<number, Answer>;
  message: z.ZodType;
  emptyBody: NonNullable<ApiOperation["body"]>;
};

/** A call's own words; its method and answers come from `reading` or `writing`. */
type CallWords = Omit<ApiOperation, "method" | "answers">;

const OFF = "The firm has turned this part off.";

export function afterMaterialsCalls({
  refused,
  badInput,
  notSignedIn,
  bodyRefusals,
  message,
  emptyBody,
}: Refusals): ApiOperation[] {
  const investorOnly = refused("The token is not an investor's.");
  const adminOnly = refused("The token is not an administrator's.");
  const idParameter = { id: { schema: z.string(), description: "The question's id." } };
  /** A GET: 400 for a refused query (where it takes one), 401 without a token, 403 for `forbidden`, 404 while the part is off. */
  const reading = (call: CallWords, ok: Answer, forbidden: Answer): ApiOperation => {
    const answers: Record<number, Answer> = { 200: ok, 401: notSignedIn, 403: forbidden, 404: refused(OFF) };
    if (call.query) answers[400] = badInput;
    return { ...call, method: "get", answers };
  };
  /** A POST with a JSON body: the body's refusals (403 for `forbidden`), 401 without a token, 404 for `missing` or while the part is off. */
  const writing = (call: CallWords, ok: Record<number, Answer>, forbidden: string, missing?: string): ApiOperation => ({
    ...call,
    method: "post",
    answers: {
      ...ok,
      ...bodyRefusals(forbidden),
      401: notSignedIn,
      404: refused(missing ? `${missing} Or: ${OFF}` : OFF),
    },
  });
  return [
    reading(
      {
        operationId: "listOwnQuestions",
        path: "/api/questions",
        summary: "List my questions",
        description: "The investor's own questions with the firm's answers, newest first.",
        tag: "Questions",
        auth: "bearer",
      },
      { description: "The questions.", schema: afterMaterialsShapes.OwnQuestions },
      investorOnly,
    ),
    writing(
      {
        operationId: "askQuestion",
        path: "/api/questions",
        summary: "Ask a question",
        description: `Asks the firm a question, about the offering or a document the investor can read (and a page of it: one the document has, and a video has none); the firm's investors mailbox is told. An investor may ask ${QUESTIONS_PER_HOUR.limit} questions an hour.`,
        tag: "Questions",
        auth: "bearer",
        body: { schema: askQuestionSchema, required: true, name: "AskQuestionRequest" },
      },
      {
        201: { description: "The question as stored.", schema: afterMaterialsShapes.AskedQuestion },
        429: refused(
          "The investor has asked as many questions as an hour allows: try again after `Retry-After` seconds.",
          ["Retry-After"],
        ),
      },
      "The token is not an investor's whose NDA is signed.",
    ),
    reading(
      {
        operationId: "listPublishedAnswers",
        path: "/api/questions/published",
        summary: "Read the published answers",
        description:
          "The answers the firm published to the caller (about the offering, or a document they can read), newest first; `q` searches them.",
        tag: "Questions",
        auth: "bearer",
        query: publishedQuerySchema,
      },
      { description: "The published answers.", schema: afterMaterialsShapes.PublishedAnswers },
      refused("The investor's NDA is not signed yet."),
    ),
    reading(
      {
        operationId: "getQuestionQueue",
        path: "/api/questions/queue",
        summary: "Read the question queue",
        description: "The investors' questions in one status (new, answered or closed), newest first, 50 a page.",
        tag: "Questions",
        auth: "administrator",
        query: queueQuerySchema,
      },
      { description: "A page of the queue.", schema: afterMaterialsShapes.QuestionQueue },
      adminOnly,
    ),
    writing(
      {
        operationId: "answerQuestion",
        path: "/api/questions/{id}/answer",
        summary: "Answer a question",
        description:
          "Answers privately, publishes the answer to every investor who can read the document (the asker not named), or both; a published answer given again is an edit, and its earlier text is kept. The asker is e-mailed.",
        tag: "Questions",
        auth: "administrator",
        pathParameters: idParameter,
        body: { schema: answerBodySchema, required: true, name: "AnswerQuestionRequest" },
      },
      { 200: { description: "The answer is stored.", schema: message } },
      "The token is not an administrator's.",
      "No question has this id.",
    ),
    writing(
      {
        operationId: "closeQuestion",
        path: "/api/questions/{id}/close",
        summary: "Close a question",
        description: "Closes a question; its answers stand.",
        tag: "Questions",
        auth: "administrator",
        pathParameters: idParameter,
        body: emptyBody,
      },
      { 200: { description: "The question is closed.", schema: message } },
      "The token is not an administrator's.",
      "No question has this id.",
    ),
    reading(
      {
        operationId: "getQualification",
        path: "/api/qualification",
        summary: "Read my qualification",
        description:
          "The investor's statements of how they qualify, and the firm's verifications with when each expires.",
        tag: "Qualification",
        auth: "bearer",
      },
      { description: "The statements and verifications.", schema: afterMaterialsShapes.Qualification },
      investorOnly,
    ),
    writing(
      {
        operationId: "stateQualification",
        path: "/api/qualification",
        summary: "Say how I qualify",
        description:
          "States whether and how the investor is an accredited investor (a category of Rule 501(a), or `not_accredited`), as of a date; earlier statements are kept.",
        tag: "Qualification",
        auth: "bearer",
        body: { schema: qualificationStatementSchema, required: true, name: "QualificationRequest" },
      },
      { 201: { description: "The statements and verifications.", schema: afterMaterialsShapes.Qualification } },
      "The token is not an investor's.",
    ),
    writing(
      {
        operationId: "recordVerification",
        path: "/api/investors/{id}/verifications",
        summary: "Record a verification",
        description:
          "Records the firm's verification of how an investor qualifies (its method, date and note); it expires after the days the firm set. A file goes with it on the investor's page.",
        tag: "Qualification",
        auth: "administrator",
        pathParameters: { id: { schema: z.string(), description: "The investor's id." } },
        body: { schema: verificationSchema, required: true, name: "VerificationRequest" },
      },
      {
        201: {
          description: "The investor's statements and verifications.",
          schema: afterMaterialsShapes.Qualification,
        },
      },
      "The token is not an administrator's.",
      "No investor has this id.",
    ),
    reading(
      {
        operationId: "getInterest",
        path: "/api/interest",
        summary: "Read my indication of interest",
        description: "The investor's indications, newest first, and the firm's words on what an indication is not.",
        tag: "Interest",
        auth: "bearer",
      },
      { description: "The indications.", schema: afterMaterialsShapes.Interest },
      investorOnly,
    ),
    writing(
      {
        operationId: "indicateInterest",
        path: "/api/interest",
        summary: "Indicate interest",
        description:
          "States a non-binding amount in whole U.S. dollars (more than 0, at most 10 billion), and optionally a range and a note; each change is kept. Not an offer or a commitment.",
        tag: "Interest",
        auth: "bearer",
        body: { schema: interestSchema, required: true, name: "InterestRequest" },
      },
      { 201: { description: "The indications.", schema: afterMaterialsShapes.Interest } },
      "The token is not an investor's.",
    ),
    writing(
      {
        operationId: "withdrawInterest",
        path: "/api/interest/withdraw",
        summary: "Withdraw my indication",
        description: "Withdraws the investor's indication of interest; the earlier ones are kept.",
        tag: "Interest",
        auth: "bearer",
        body: emptyBody,
      },
      { 201: { description: "The indications.", schema: afterMaterialsShapes.Interest } },
      "The token is not an investor's.",
    ),
    // The pipeline has no switch of its own, so no 404.
    {
      operationId: "getPipeline",
      method: "get",
      path: "/api/pipeline",
      summary: "Read the pipeline",
      description:
        "The raise as a pipeline: each stage's count and its conversion from the stage before, the totals of indicated interest by verification, and the weeks.",
      tag: "Pipeline",
      auth: "administrator",
      answers: {
        200: { description: "The pipeline.", schema: afterMaterialsShapes.Pipeline },
        401: notSignedIn,
        403: adminOnly,
      },
    },
  ];
}
