import type { ActionFunctionArgs } from "@remix-run/node";
import { adminContent } from "~/content/admin";
import { apiError, apiJson, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { ndaFlagSchema, setNdaSigned } from "~/models/investor-admin.server";

/** POST { email, state } → 201 (administrators only); unknown e-mail → 404. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireApiUser(request, { role: "administrator" });
  const { email, state } = await readJsonBody(request, ndaFlagSchema);
  const result = await setNdaSigned({ actor, email, state, ip: (context as { clientIp?: string }).clientIp });
  if (!result.ok) return apiError(result.status, result.message);
  return apiJson({ message: adminContent.notices.ndaChanged, user: result.user }, { status: 201 });
}

export const loader = () => methodNotAllowed(["POST"]);
