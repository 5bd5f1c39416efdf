import type { LoaderFunctionArgs } from "@remix-run/node";
import { materialsRefusal } from "~/content/portal";
import { apiError, apiJson, methodNotAllowed, readApiQuery } from "~/http/api.server";
import { requireFeatureApiUser } from "~/http/feature-gate.server";
import { canSeeMaterials } from "~/models/library/access.server";
import { publishedQuerySchema } from "~/models/questions/question-schemas.server";
import { listPublishedAnswers } from "~/models/questions/questions.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET ?q= → 200 { answers }: the answers published to the caller, newest first, the askers not named. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  const user = await requireFeatureApiUser(request, "questions");
  if (!canSeeMaterials(user)) return apiError(403, materialsRefusal.plain);
  const { q } = readApiQuery(request, publishedQuerySchema);
  return apiJson({ answers: await listPublishedAnswers(user, q) } satisfies AnswerOf<"PublishedAnswers">);
}

export const action = () => methodNotAllowed(["GET"]);
