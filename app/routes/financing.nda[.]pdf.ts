import type { LoaderFunctionArgs } from "@remix-run/node";
import { ndaMessages } from "~/content/nda";
import { requireUser } from "~/http/auth.server";
import { ndaPdfAnswer } from "~/http/nda-file.server";
import { investorNdaFile } from "~/models/nda/nda-document.server";

/** The signed-in investor's NDA, shown in the browser: the copy to review, or what they signed. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (user.role.name !== "investor") throw new Response(ndaMessages.noDocument, { status: 404 });
  const file = await investorNdaFile(user, context.clientIp);
  if (!file) throw new Response(ndaMessages.noDocument, { status: 404 });
  return ndaPdfAnswer(file);
}
