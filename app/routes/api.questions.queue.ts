import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, methodNotAllowed, readApiQuery } from "~/http/api.server";
import { requireFeatureApiUser } from "~/http/feature-gate.server";
import { listQueue } from "~/models/questions/question-queue.server";
import { queueQuerySchema } from "~/models/questions/question-schemas.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET ?status=&before= → 200 { questions, nextBefore } (administrators only): a page of the queue. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  await requireFeatureApiUser(request, "questions", { role: "administrator" });
  return apiJson((await listQueue(readApiQuery(request, queueQuerySchema))) satisfies AnswerOf<"QuestionQueue">);
}

export const action = () => methodNotAllowed(["GET"]);
