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
  return [
    {
      operationId: "listOwnQuestions",
      method: "get",
      path: "/api/questions",
      summary: "List my questions",
      description: "The investor's own questions with the firm's answers, newest first.",
      tag: "Questions",
      auth: "bearer",
      answers: {
        200: { description: "The questions.", schema: afterMaterialsShapes.OwnQuestions },
        401: notSignedIn,
        403: investorOnly,
        404: refused(OFF),
      },
    },
    {
      operationId: "askQuestion",
      method: "post",
      path: "/api/questions",
      summary: "Ask a question",
      description:
        "Asks the firm a question, about the offering or a document the investor can read (and a page of it: one the document has, and a video has none); the firm's investors mailbox is told. An investor may ask 10 questions an hour.",
      tag: "Questions",
      auth: "bearer",
      body: { schema: askQuestionSchema, required: true, name: "AskQuestionRequest" },
      answers: {
        201: { description: "The question as stored.", schema: afterMaterialsShapes.AskedQuestion },
        ...bodyRefusals("The token is not an investor's whose NDA is signed."),
        401: notSignedIn,
        404: refused(OFF),
        429: refused(
          "The investor has asked as many questions as an hour allows: try again after `Retry-After` seconds.",
          ["Retry-After"],
        ),
      },
    },
    {
      operationId: "listPublishedAnswers",
      method: "get",
      path: "/api/questions/published",
      summary: "Read the published answers",
      description:
        "The answers the firm published to the caller (about the offering, or a document they can read), newest first; `q` searches them.",
      tag: "Questions",
      auth: "bearer",
      query: publishedQuerySchema,
      answers: {
        200: { description: "The published answers.", schema: afterMaterialsShapes.PublishedAnswers },
        400: badInput,
        401: notSignedIn,
        403: refused("The investor's NDA is not signed yet."),
        404: refused(OFF),
      },
    },
    {
      operationId: "getQuestionQueue",
      method: "get",
      path: "/api/questions/queue",
      summary: "Read the question queue",
      description: "The investors' questions in one status (new, answered or closed), newest first, 50 a page.",
      tag: "Questions",
      auth: "administrator",
      query: queueQuerySchema,
      answers: {
        200: { description: "A page of the queue.", schema: afterMaterialsShapes.QuestionQueue },
        400: badInput,
        401: notSignedIn,
        403: adminOnly,
        404: refused(OFF),
      },
    },
    {
      operationId: "answerQuestion",
      method: "post",
      path: "/api/questions/{id}/answer",
      summary: "Answer a question",
      description:
        "Answers privately, publishes the answer to every investor who can read the document (the asker not named), or both; a published answer given again is an edit, and its earlier text is kept. The asker is e-mailed.",
      tag: "Questions",
      auth: "administrator",
      pathParameters: idParameter,
      body: { schema: answerBodySchema, required: true, name: "AnswerQuestionRequest" },
      answers: {
        200: { description: "The answer is stored.", schema: message },
        ...bodyRefusals("The token is not an administrator's."),
        401: notSignedIn,
        404: refused(`No question has this id. Or: ${OFF}`),
      },
    },
    {
      operationId: "closeQuestion",
      method: "post",
      path: "/api/questions/{id}/close",
      summary: "Close a question",
      description: "Closes a question; its answers stand.",
      tag: "Questions",
      auth: "administrator",
      pathParameters: idParameter,
      body: emptyBody,
      answers: {
        200: { description: "The question is closed.", schema: message },
        ...bodyRefusals("The token is not an administrator's."),
        401: notSignedIn,
        404: refused(`No question has this id. Or: ${OFF}`),
      },
    },
    {
      operationId: "getQualification",
      method: "get",
      path: "/api/qualification",
      summary: "Read my qualification",
      description:
        "The investor's statements of how they qualify, and the firm's verifications with when each expires.",
      tag: "Qualification",
      auth: "bearer",
      answers: {
        200: { description: "The statements and verifications.", schema: afterMaterialsShapes.Qualification },
        401: notSignedIn,
        403: investorOnly,
        404: refused(OFF),
      },
    },
    {
      operationId: "stateQualification",
      method: "post",
      path: "/api/qualification",
      summary: "Say how I qualify",
      description:
        "States whether and how the investor is an accredited investor (a category of Rule 501(a), or `not_accredited`), as of a date; earlier statements are kept.",
      tag: "Qualification",
      auth: "bearer",
      body: { schema: qualificationStatementSchema, required: true, name: "QualificationRequest" },
      answers: {
        201: { description: "The statements and verifications.", schema: afterMaterialsShapes.Qualification },
        ...bodyRefusals("The token is not an investor's."),
        401: notSignedIn,
        404: refused(OFF),
      },
    },
    {
      operationId: "recordVerification",
      method: "post",
      path: "/api/investors/{id}/verifications",
      summary: "Record a verification",
      description:
        "Records the firm's verification of how an investor qualifies (its method, date and note); it expires after the days the firm set. A file goes with it on the investor's page.",
      tag: "Qualification",
      auth: "administrator",
      pathParameters: { id: { schema: z.string(), description: "The investor's id." } },
      body: { schema: verificationSchema, required: true, name: "VerificationRequest" },
      answers: {
        201: {
          description: "The investor's statements and verifications.",
          schema: afterMaterialsShapes.Qualification,
        },
        ...bodyRefusals("The token is not an administrator's."),
        401: notSignedIn,
        404: refused(`No investor has this id. Or: ${OFF}`),
      },
    },
    {
      operationId: "getInterest",
      method: "get",
      path: "/api/interest",
      summary: "Read my indication of interest",
      description: "The investor's indications, newest first, and the firm's words on what an indication is not.",
      tag: "Interest",
      auth: "bearer",
      answers: {
        200: { description: "The indications.", schema: afterMaterialsShapes.Interest },
        401: notSignedIn,
        403: investorOnly,
        404: refused(OFF),
      },
    },
    {
      operationId: "indicateInterest",
      method: "post",
      path: "/api/interest",
      summary: "Indicate interest",
      description:
        "States a non-binding amount in whole U.S. dollars (more than 0, at most 10 billion), and optionally a range and a note; each change is kept. Not an offer or a commitment.",
      tag: "Interest",
      auth: "bearer",
      body: { schema: interestSchema, required: true, name: "InterestRequest" },
      answers: {
        201: { description: "The indications.", schema: afterMaterialsShapes.Interest },
        ...bodyRefusals("The token is not an investor's."),
        401: notSignedIn,
        404: refused(OFF),
      },
    },
    {
      operationId: "withdrawInterest",
      method: "post",
      path: "/api/interest/withdraw",
      summary: "Withdraw my indication",
      description: "Withdraws the investor's indication of interest; the earlier ones are kept.",
      tag: "Interest",
      auth: "bearer",
      body: emptyBody,
      answers: {
        201: { description: "The indications.", schema: afterMaterialsShapes.Interest },
        ...bodyRefusals("The token is not an investor's."),
        401: notSignedIn,
        404: refused(OFF),
      },
    },
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
