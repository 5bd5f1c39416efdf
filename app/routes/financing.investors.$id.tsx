import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { z } from "zod";
import { adminContent } from "~/content/admin";
import { requireAdmin } from "~/http/auth.server";
import { readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { safeReturnTo } from "~/lib/investor-table";
import { getInvestorById, setNdaSent, setNdaSigned } from "~/models/investor-admin.server";

const flagSchema = z.object({
  intent: z.enum(["nda-sent", "nda-signed"]),
  state: z.enum(["yes", "no"]),
});

/** This URL is only posted to; it has nothing to show, so an administrator's visit goes back to the table. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return redirect("/financing");
}

/**
 * POST from one NDA dropdown of the investor table: sets the flag and sends
 * the administrator back to the table URL it came from (`returnTo`).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const actor = await requireAdmin(request);
  const body = await readFormBody(request);
  // Not a browser's form: told in plain words, as there is no page to go back to.
  if (!body.ok) {
    return new Response(body.message, {
      status: body.status,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const { formData } = body;
  const returnTo = safeReturnTo(formData.get("returnTo"));
  // parseSubmission refuses a field sent twice (state=yes&state=no): which one did the administrator mean?
  const flag = parseSubmission(formData, flagSchema);
  const investor = params.id ? await getInvestorById(params.id) : null;
  if (flag.status !== "success" || !investor) {
    return redirectWithError(returnTo, adminContent.notices.failed);
  }
  const change = flag.value.intent === "nda-sent" ? setNdaSent : setNdaSigned;
  const result = await change({
    actor,
    email: investor.email,
    state: flag.value.state === "yes",
    ip: context.clientIp,
  });
  if (!result.ok) return redirectWithError(returnTo, adminContent.notices.failed);
  return redirectWithSuccess(returnTo, adminContent.notices.ndaChanged);
}
