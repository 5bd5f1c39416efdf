import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireFeatureApiUser } from "~/http/feature-gate.server";
import { interestAnswer } from "~/http/interest-api.server";
import { interestSchema } from "~/models/interest/interest-schemas.server";
import { indicateInterest } from "~/models/interest/interest.server";

/** GET → 200 { indications, notice }: the investor's own indications, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET", "POST"]);
  const user = await requireFeatureApiUser(request, "interest", { role: "investor" });
  return interestAnswer(user.id);
}

/** POST { amount, low?, high?, note? } → 201: a new indication, the earlier ones kept. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const user = await requireFeatureApiUser(request, "interest", { role: "investor" });
  const input = await readJsonBody(request, interestSchema);
  await indicateInterest({ user, input, ip: context.clientIp });
  return interestAnswer(user.id, 201);
}
