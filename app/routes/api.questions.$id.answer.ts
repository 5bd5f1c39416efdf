import type { ActionFunctionArgs } from "@remix-run/node";
import { questionsContent } from "~/content/questions";
import { apiError, apiJson, methodNotAllowed, readApiParam, readJsonBody } from "~/http/api.server";
import { requireFeatureApiUser } from "~/http/feature-gate.server";
import { answerQuestion } from "~/models/questions/question-queue.server";
import { answerBodySchema, questionIdSchema } from "~/models/questions/question-schemas.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** POST { privateAnswer?, publishedAnswer? } → 200 (administrators only); the asker is mailed. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireFeatureApiUser(request, "questions", { role: "administrator" });
  // The body first: one that is not JSON is refused as such whatever the path holds.
  const texts = await readJsonBody(request, answerBodySchema);
  const id = readApiParam("id", params.id, questionIdSchema);
  const outcome = await answerQuestion({ actor, input: { id, ...texts }, ip: context.clientIp });
  if (!outcome.ok) return apiError(outcome.status, outcome.message);
  return apiJson({ message: questionsContent.queue.answered } satisfies AnswerOf<"Message">);
}

export const loader = () => methodNotAllowed(["POST"]);
