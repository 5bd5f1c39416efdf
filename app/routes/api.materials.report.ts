import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, methodNotAllowed } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { readingReportAnswer } from "~/http/materials-api.server";
import { readingReport } from "~/models/library/library-openings.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET → 200 { documents } (administrators only): for each document, its readers, openings, first and last. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  await requireApiUser(request, { role: "administrator" });
  return apiJson(readingReportAnswer(await readingReport()) satisfies AnswerOf<"ReadingReport">);
}

export const action = () => methodNotAllowed(["GET"]);
