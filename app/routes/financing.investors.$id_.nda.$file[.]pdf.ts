import type { LoaderFunctionArgs } from "@remix-run/node";
import { investorPageContent } from "~/content/investor-page";
import { ndaAdminContent } from "~/content/nda";
import { requireAdmin } from "~/http/auth.server";
import { ndaPdfAnswer } from "~/http/nda-file.server";
import { investorIdSchema } from "~/models/investors/investor-record.server";
import { ndaFileForAdministrator } from "~/models/nda/nda-document.server";

const TEXT_HEADERS = { "Content-Type": "text/plain; charset=utf-8" };

/** GET: an investor's signed NDA ("signed": the investor's, "completed": the fully signed), for an administrator. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  const id = investorIdSchema.safeParse(params.id);
  if (!id.success) throw new Response(investorPageContent.errors.idInvalid, { status: 400, headers: TEXT_HEADERS });
  const which = params.file === "signed" || params.file === "completed" ? params.file : null;
  const file = which ? await ndaFileForAdministrator(id.data, which, user, context.clientIp) : null;
  if (!file) throw new Response(ndaAdminContent.noInvestorFile, { status: 404, headers: TEXT_HEADERS });
  return ndaPdfAnswer(file, "attachment");
}
