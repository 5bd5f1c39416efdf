import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { countersignNda } from "~/models/nda/nda-completion.server";
import { ndaCountersignSchema } from "~/models/nda/nda-schemas.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** POST { investorId } → 201: the firm's countersignature; the NDA completes and both sides are mailed the PDF. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireApiUser(request, { role: "administrator" });
  const { investorId } = await readJsonBody(request, ndaCountersignSchema);
  const result = await countersignNda(actor, investorId, context.clientIp);
  if (!result.ok) return apiError(result.status, result.message);
  return apiJson({ sha256: result.sha256, completed: true } satisfies AnswerOf<"NdaSignAnswer">, { status: 201 });
}

export const loader = () => methodNotAllowed(["POST"]);
