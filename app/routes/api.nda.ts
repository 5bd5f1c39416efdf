import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, methodNotAllowed } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { ndaStateJson } from "~/http/nda-api.server";
import { investorNda } from "~/models/nda/nda-state.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET → the investor's NDA: the step, the disclosure, the copy to review (offered now if it was not), the signature. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, { role: "investor" });
  const nda = await investorNda(user, context.clientIp);
  return apiJson(ndaStateJson(nda) satisfies AnswerOf<"NdaState">);
}

export const action = () => methodNotAllowed(["GET"]);
