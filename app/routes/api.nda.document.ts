import type { LoaderFunctionArgs } from "@remix-run/node";
import { ndaMessages } from "~/content/nda";
import { apiError, methodNotAllowed } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { ndaPdfAnswer } from "~/http/nda-file.server";
import { investorNdaFile } from "~/models/nda/nda-document.server";

/** GET → the investor's NDA as a PDF: what they signed once signed, the copy to review before. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, { role: "investor" });
  const file = await investorNdaFile(user, context.clientIp);
  if (!file) return apiError(404, ndaMessages.noDocument);
  return ndaPdfAnswer(file);
}

export const action = () => methodNotAllowed(["GET"]);
