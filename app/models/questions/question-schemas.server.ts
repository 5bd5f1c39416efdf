/** The inputs of questions and answers, as the pages and the API both read them. */
import { z } from "zod";
import { QUESTION_STATUSES, questionsContent } from "~/content/questions";

const errors = questionsContent.errors;

const optionalText = z
  .string()
  .optional()
  .transform((text) => text?.trim() || undefined);

export const askQuestionSchema = z.object({
  body: z
    .string({ error: errors.bodyRequired })
    .max(2000, { error: errors.bodyTooLong })
    .regex(/\S/, { error: errors.bodyRequired })
    .transform((text) => text.trim()),
  documentId: optionalText,
  page: z.coerce
    .number({ error: errors.pageInvalid })
    .int({ error: errors.pageInvalid })
    .min(1, { error: errors.pageInvalid })
    .max(10_000, { error: errors.pageInvalid })
    .optional(),
});
export type AskQuestionInput = z.output<typeof askQuestionSchema>;

const answerText = optionalText.pipe(z.string().max(5000, { error: errors.answerTooLong }).optional());

const answerTexts = z.object({ privateAnswer: answerText, publishedAnswer: answerText });
const someAnswer = (input: z.output<typeof answerTexts>) =>
  input.privateAnswer !== undefined || input.publishedAnswer !== undefined;
const questionId = z.uuid({ error: errors.idInvalid });

/** The API's answer body (the question's id is in the path). */
export const answerBodySchema = answerTexts.refine(someAnswer, {
  error: errors.answerRequired,
  path: ["privateAnswer"],
});

/** The queue page's answer form. */
export const answerQuestionSchema = answerTexts
  .extend({ id: questionId })
  .refine(someAnswer, { error: errors.answerRequired, path: ["privateAnswer"] });
export type AnswerQuestionInput = z.output<typeof answerQuestionSchema>;

export const closeQuestionSchema = z.object({ id: questionId });
export { questionId as questionIdSchema };

export const queueQuerySchema = z.object({
  status: z.enum(QUESTION_STATUSES, { error: errors.statusInvalid }).default("new"),
  before: z.coerce.number().int().min(0).optional(),
});

export const publishedQuerySchema = z.object({
  q: z
    .string()
    .max(200)
    .optional()
    .transform((text) => text?.trim() ?? ""),
});
