import type { ActionFunctionArgs } from "@remix-run/node";
import { recoveryCodesPage } from "~/content/recovery-codes";
import { methodNotAllowed } from "~/http/api.server";
import { requireUser } from "~/http/auth.server";
import { readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { formatRegistrationTime } from "~/lib/investor-table";
import { recoveryCodesMadeAt } from "~/models/second-factor/recovery-code.server";
import { recoveryCodesFileSchema } from "~/models/second-factor/second-factor-schemas.server";

const NOT_STORED = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" };

/**
 * POST the codes a page just showed → the same codes as a .txt file to save. Nothing is looked up or
 * kept: the codes exist in clear only on that page, which sends them here (recovery-codes.tsx says why).
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const body = await readFormBody(request);
  if (!body.ok) return new Response(body.message, { status: body.status, headers: NOT_STORED });
  const submission = parseSubmission(body.formData, recoveryCodesFileSchema);
  if (submission.status !== "success") {
    return new Response(recoveryCodesPage.malformed, { status: 400, headers: NOT_STORED });
  }
  const madeAt = await recoveryCodesMadeAt(user.id);
  const madeOn = madeAt === null ? null : formatRegistrationTime(new Date(madeAt).toISOString());
  return new Response(recoveryCodesPage.fileText({ codes: submission.value.codes, email: user.email, madeOn }), {
    headers: { ...NOT_STORED, "Content-Disposition": `attachment; filename="${recoveryCodesPage.fileName}"` },
  });
}

export const loader = () => methodNotAllowed(["POST"]);
