import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, readEmptyBody } from "~/http/api.server";
import { requireFeatureApiUser } from "~/http/feature-gate.server";
import { interestAnswer } from "~/http/interest-api.server";
import { indicateInterest } from "~/models/interest/interest.server";

/** POST → 201: the investor's indication is withdrawn (the earlier ones kept). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const user = await requireFeatureApiUser(request, "interest", { role: "investor" });
  await readEmptyBody(request);
  await indicateInterest({ user, input: null, ip: context.clientIp });
  return interestAnswer(user.id, 201);
}

export const loader = () => methodNotAllowed(["POST"]);
