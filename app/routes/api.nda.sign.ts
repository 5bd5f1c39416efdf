import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { confirmSecondFactor } from "~/models/account/reauthentication.server";
import { ndaSignSchema } from "~/models/nda/nda-schemas.server";
import { signNda } from "~/models/nda/nda-signing.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/**
 * POST { typedName, copySha256, intent, code? } → 201: the NDA signed and sealed. The bearer token stands
 * for the password; the code is asked where the account has a second factor.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const user = await requireApiUser(request, { role: "investor" });
  const body = await readJsonBody(request, ndaSignSchema);
  const factor = await confirmSecondFactor({ user, proof: { code: body.code }, ip: context.clientIp });
  if (!factor.ok) return apiError(factor.status, factor.message, { retryAfterSeconds: factor.retryAfterSeconds });
  const result = await signNda(user, {
    typedName: body.typedName,
    copySha256: body.copySha256,
    intent: body.intent,
    authMethod: factor.method ? `api-token+${factor.method}` : "api-token",
    ip: context.clientIp,
    userAgent: request.headers.get("User-Agent"),
  });
  if (!result.ok) return apiError(result.status, result.message);
  return apiJson({ sha256: result.sha256, completed: result.completed } satisfies AnswerOf<"NdaSignAnswer">, {
    status: 201,
  });
}

export const loader = () => methodNotAllowed(["POST"]);
