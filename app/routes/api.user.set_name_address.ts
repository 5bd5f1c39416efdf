import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { setNameAddressSchema, setNameAndAddress } from "~/models/investors/investor-profile.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/**
 * POST { email, full_name, address } → 201 with the updated user. An investor
 * names only themselves (another address → 403); an administrator anyone
 * (unknown address → 404). Any other field of the body is ignored.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireApiUser(request);
  const body = await readJsonBody(request, setNameAddressSchema);
  const result = await setNameAndAddress({
    actor,
    email: body.email,
    fullName: body.full_name,
    address: body.address,
    ip: context.clientIp,
  });
  if (!result.ok) return apiError(result.status, result.message);
  return apiJson(result.user satisfies AnswerOf<"PublicUser">, { status: 201 });
}

export const loader = () => methodNotAllowed(["POST"]);
