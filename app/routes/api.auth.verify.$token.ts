import type { LoaderFunctionArgs } from "@remix-run/node";
import { verifyEmail } from "~/models/account.server";
import { accountMessages } from "~/utils/account-validation";
import { apiError, apiJson, methodNotAllowed } from "~/utils/api.server";

/** GET → 200 when the link's token verifies the address, 400 when it is unknown, used or expired. */
export async function loader({ params }: LoaderFunctionArgs) {
  const outcome = await verifyEmail(params.token);
  if (!outcome.ok) return apiError(400, outcome.message);
  return apiJson({ message: accountMessages.emailVerified });
}

export const action = () => methodNotAllowed(["GET"]);
