import type { ActionFunctionArgs } from "@remix-run/node";
import { adminContent } from "~/content/admin";
import { ndaFlagSchema, type setNdaSent } from "~/models/investors/nda-flags.server";
import type { AnswerOf } from "../openapi/api-contract.server";
import { apiError, apiJson, methodNotAllowed, readJsonBody } from "./api.server";
import { requireApiUser } from "./auth.server";

/**
 * The action of the two NDA flag calls (update_nda_sent, update_nda_signed): POST { email, state }
 * → 201 with the investor (administrators only); an unknown e-mail → 404.
 */
export function ndaFlagApiAction(change: typeof setNdaSent) {
  return async function action({ request, context }: ActionFunctionArgs) {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const actor = await requireApiUser(request, { role: "administrator" });
    const { email, state } = await readJsonBody(request, ndaFlagSchema);
    const result = await change({ actor, email, state, ip: context.clientIp });
    if (!result.ok) return apiError(result.status, result.message);
    return apiJson(
      { message: adminContent.notices.ndaChanged, user: result.user } satisfies AnswerOf<"NdaFlagAnswer">,
      { status: 201 },
    );
  };
}
