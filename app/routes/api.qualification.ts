import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, methodNotAllowed, readJsonBody } from "~/http/api.server";
import { requireFeatureApiUser } from "~/http/feature-gate.server";
import { qualificationStatementSchema } from "~/models/qualification/qualification-schemas.server";
import { qualificationOf, stateQualification } from "~/models/qualification/qualification.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET → 200 { statements, verifications }: the investor's own, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET", "POST"]);
  const user = await requireFeatureApiUser(request, "qualification", { role: "investor" });
  return apiJson((await qualificationOf(user.id)) satisfies AnswerOf<"Qualification">);
}

/** POST { category, statedOn } → 201 with the statements (the new one first). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const user = await requireFeatureApiUser(request, "qualification", { role: "investor" });
  const input = await readJsonBody(request, qualificationStatementSchema);
  await stateQualification({ user, input, ip: context.clientIp });
  return apiJson((await qualificationOf(user.id)) satisfies AnswerOf<"Qualification">, { status: 201 });
}
