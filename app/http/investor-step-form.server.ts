/**
 * The start of every action of an investor's step after the materials (how they qualify, their interest):
 * the investor whose NDA is signed, the part turned on (else 404), and the form; or the refusal to answer.
 */
import { json } from "@remix-run/node";
import { investorStepsContent } from "~/content/investor-steps";
import type { FormReply } from "~/lib/form-reply";
import type { PublicUser } from "~/models/account/user.server";
import type { PortalFeature } from "~/models/features/portal-features.server";
import { requireNdaSigned } from "./auth.server";
import { requireFeaturePage } from "./feature-gate.server";
import { readFormBody } from "./form-body.server";

const NO_STORE = { "Cache-Control": "private, no-store" };

/** A refusal of the step's form: its messages and values, and the status. */
export const refuseStep = (status: number, reply: FormReply) => json({ reply }, { status, headers: NO_STORE });

export async function readInvestorStepForm(request: Request, feature: PortalFeature) {
  const user: PublicUser = await requireNdaSigned(request);
  await requireFeaturePage(feature);
  if (user.role.name !== "investor") {
    return { refusal: refuseStep(403, { error: { "": [investorStepsContent.errors.notInvestor] }, initialValue: {} }) };
  }
  const body = await readFormBody(request);
  if (!body.ok) return { refusal: refuseStep(body.status, { error: { "": [body.message] }, initialValue: {} }) };
  return { user, formData: body.formData };
}
