import type { ActionFunctionArgs } from "@remix-run/node";
import { adminContent } from "~/content/admin";
import { apiError, apiJson, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { deleteInvestor, deleteInvestorSchema } from "~/models/investors/investor-deletion.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** POST { id } → 201 (administrators only); unknown id → 404; an administrator's id → 403. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireApiUser(request, { role: "administrator" });
  const { id } = await readJsonBody(request, deleteInvestorSchema);
  const result = await deleteInvestor({ actor, id, ip: context.clientIp });
  if (!result.ok) return apiError(result.status, result.message);
  return apiJson({ message: adminContent.notices.deleted } satisfies AnswerOf<"Message">, { status: 201 });
}

export const loader = () => methodNotAllowed(["POST"]);
