import type { ActionFunctionArgs } from "@remix-run/node";
import { questionsContent } from "~/content/questions";
import { apiError, apiJson, methodNotAllowed, readApiParam, readEmptyBody } from "~/http/api.server";
import { requireFeatureApiUser } from "~/http/feature-gate.server";
import { closeQuestion } from "~/models/questions/question-queue.server";
import { questionIdSchema } from "~/models/questions/question-schemas.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** POST → 200 (administrators only): the question is closed; its answers stand. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireFeatureApiUser(request, "questions", { role: "administrator" });
  // The body first: one that is not JSON is refused as such whatever the path holds.
  await readEmptyBody(request);
  const id = readApiParam("id", params.id, questionIdSchema);
  const outcome = await closeQuestion({ actor, id, ip: context.clientIp });
  if (!outcome.ok) return apiError(outcome.status, outcome.message);
  return apiJson({ message: questionsContent.queue.closed } satisfies AnswerOf<"Message">);
}

export const loader = () => methodNotAllowed(["POST"]);
