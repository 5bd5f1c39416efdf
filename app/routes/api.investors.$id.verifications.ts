import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { investorStepsContent } from "~/content/investor-steps";
import { apiError, apiJson, methodNotAllowed, readApiParam, readJsonBody } from "~/http/api.server";
import { requireFeatureApiUser } from "~/http/feature-gate.server";
import { verificationSchema } from "~/models/qualification/qualification-schemas.server";
import { qualificationOf, recordVerification } from "~/models/qualification/qualification.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** POST { method, verifiedOn, note? } → 201 (administrators only): the investor's verification is recorded. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireFeatureApiUser(request, "qualification", { role: "administrator" });
  const investorId = readApiParam("id", params.id, z.string());
  const input = await readJsonBody(request, verificationSchema);
  if (!(await recordVerification({ actor, investorId, input, ip: context.clientIp }))) {
    return apiError(404, investorStepsContent.errors.notFound);
  }
  return apiJson((await qualificationOf(investorId)) satisfies AnswerOf<"Qualification">, { status: 201 });
}

export const loader = () => methodNotAllowed(["POST"]);
