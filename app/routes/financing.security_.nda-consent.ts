import type { ActionFunctionArgs } from "@remix-run/node";
import { ndaContent } from "~/content/nda";
import { requireUser } from "~/http/auth.server";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { withdrawConsent } from "~/models/nda/nda-consent.server";

const BACK = "/financing/security";

/** POST: withdraws the investor's consent to electronic records (recorded, and the firm e-mailed). */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const result = await withdrawConsent(user, { ip: context.clientIp, userAgent: request.headers.get("User-Agent") });
  if (!result.ok) return redirectWithError(BACK, { message: result.message }, { status: 303 });
  return redirectWithSuccess(BACK, ndaContent.withdrawn);
}

export const loader = () => new Response(null, { status: 405, headers: { Allow: "POST" } });
