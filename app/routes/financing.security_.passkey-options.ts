import type { ActionFunctionArgs } from "@remix-run/node";
import { apiJson, apiRefusal, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireUser } from "~/http/auth.server";
import { confirmPassword } from "~/models/account.server";
import { passkeyRegistrationOptions } from "~/models/passkey.server";
import { passwordAgainSchema } from "~/models/second-factor-schemas.server";

/** POST { password } → the options of a new passkey's registration: adding one needs the password again. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { password } = await readJsonBody(request, passwordAgainSchema);
  const check = await confirmPassword({ user, password, ip: context.clientIp });
  if (!check.ok) return apiRefusal(check);
  return apiJson(await passkeyRegistrationOptions(user), { headers: { "Cache-Control": "private, no-store" } });
}

export const loader = () => methodNotAllowed(["POST"]);
