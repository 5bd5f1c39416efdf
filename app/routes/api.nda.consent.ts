import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { ndaStateJson } from "~/http/nda-api.server";
import { giveConsent } from "~/models/nda/nda-consent.server";
import { ndaConsentSchema } from "~/models/nda/nda-schemas.server";
import { investorNda } from "~/models/nda/nda-state.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** POST { agree: true } → 201 with the NDA's state: consent to electronic records, recorded with the disclosure's hash. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const user = await requireApiUser(request, { role: "investor" });
  const { agree } = await readJsonBody(request, ndaConsentSchema);
  const client = { ip: context.clientIp, userAgent: request.headers.get("User-Agent") };
  const result = await giveConsent(user, { agreed: agree, ...client });
  if (!result.ok) return apiError(result.status, result.message);
  return apiJson(ndaStateJson(await investorNda(user, context.clientIp)) satisfies AnswerOf<"NdaState">, {
    status: 201,
  });
}

export const loader = () => methodNotAllowed(["POST"]);
