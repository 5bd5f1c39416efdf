import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, methodNotAllowed } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { readPipeline } from "~/models/pipeline/pipeline.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET → 200 (administrators only): the stages with their counts and conversions, the interest, the weeks. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  await requireApiUser(request, { role: "administrator" });
  return apiJson((await readPipeline()) satisfies AnswerOf<"Pipeline">);
}

export const action = () => methodNotAllowed(["GET"]);
