import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireFeatureApiUser } from "~/http/feature-gate.server";
import { askQuestionSchema } from "~/models/questions/question-schemas.server";
import { askQuestion, listOwnQuestions } from "~/models/questions/questions.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET → 200 { questions }: the investor's own questions, with the firm's answers, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET", "POST"]);
  const user = await requireFeatureApiUser(request, "questions", { role: "investor" });
  return apiJson({ questions: await listOwnQuestions(user.id) } satisfies AnswerOf<"OwnQuestions">);
}

/**
 * POST { body, documentId?, page? } → 201 { question }; a document the investor cannot read, or a page it does
 * not have, is a 400; past the hour's questions, a 429 with Retry-After.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const user = await requireFeatureApiUser(request, "questions", { role: "investor" });
  const input = await readJsonBody(request, askQuestionSchema);
  const outcome = await askQuestion({ user, input, ip: context.clientIp });
  if (!outcome.ok) return apiRefusal(outcome);
  return apiJson({ question: outcome.question } satisfies AnswerOf<"AskedQuestion">, { status: 201 });
}
