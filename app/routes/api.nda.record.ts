import type { LoaderFunctionArgs } from "@remix-run/node";
import { ndaMessages } from "~/content/nda";
import { apiError, apiJson, methodNotAllowed, readApiQuery } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { ndaRecordJson } from "~/http/nda-api.server";
import { getUserById } from "~/models/account/user.server";
import { ndaRecord } from "~/models/nda/nda-record.server";
import { ndaRecordQuerySchema } from "~/models/nda/nda-schemas.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET ?investorId= → the investor's NDA record: version, steps, evidence, hashes, files (administrators only). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request, { role: "administrator" });
  const { investorId } = readApiQuery(request, ndaRecordQuerySchema);
  const investor = await getUserById(investorId);
  if (!investor || investor.role.name !== "investor") return apiError(404, ndaMessages.noInvestor);
  return apiJson(ndaRecordJson(await ndaRecord(investorId)) satisfies AnswerOf<"NdaRecord">);
}

export const action = () => methodNotAllowed(["GET"]);
