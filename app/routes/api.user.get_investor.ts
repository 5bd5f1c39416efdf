import type { LoaderFunctionArgs } from "@remix-run/node";
import { investorPageContent } from "~/content/investor-page";
import { apiError, apiJson, methodNotAllowed, readApiQuery } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { investorActivity, investorQuerySchema, investorRecord } from "~/models/investors/investor-record.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET ?id= → 200 { investor, activity } (administrators only): what the investor's page shows; 404 for an unknown id. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  await requireApiUser(request, { role: "administrator" });
  const { id, activityCursor } = readApiQuery(request, investorQuerySchema);
  // Asked for together: an unknown id simply has no activity.
  const [investor, activity] = await Promise.all([investorRecord(id), investorActivity(id, activityCursor)]);
  if (!investor) return apiError(404, investorPageContent.errors.notFound);
  return apiJson({ investor, activity } satisfies AnswerOf<"InvestorRecord">);
}

export const action = () => methodNotAllowed(["GET"]);
