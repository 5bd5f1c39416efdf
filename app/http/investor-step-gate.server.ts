/**
 * The start of every loader and action of an investor's step after the materials (questions, how they
 * qualify, their interest): the user whose NDA is signed, the part turned on (else 404), and the form;
 * or the refusal to answer.
 */
import { investorStepsContent } from "~/content/investor-steps";
import type { FormReply } from "~/lib/form-reply";
import type { PublicUser } from "~/models/account/user.server";
import type { PortalFeature } from "~/models/features/portal-features.server";
import { requireNdaSigned } from "./auth.server";
import { requireFeaturePage } from "./feature-gate.server";
import { readFormBody } from "./form-body.server";
import { privateJson } from "./private-json.server";

/** A refusal of the step's form: its messages and values, and the status. */
export const refuseStep = (status: number, reply: FormReply, retryAfterSeconds?: number) =>
  privateJson({ reply }, status, retryAfterSeconds);

const formLevel = (message: string): FormReply => ({ error: { "": [message] }, initialValue: {} });

/** The user whose NDA is signed (else the way to sign in, or 403), on a part that is turned on (else 404). */
export async function requireStepReader(request: Request, feature: PortalFeature): Promise<PublicUser> {
  const user = await requireNdaSigned(request);
  await requireFeaturePage(feature);
  return user;
}

/**
 * The step's form and who sent it. Only an investor may send it, unless `investorsOnly` is false: then
 * the model says what anyone else may do.
 */
export async function readInvestorStepForm(
  request: Request,
  feature: PortalFeature,
  { investorsOnly = true }: { investorsOnly?: boolean } = {},
) {
  const user = await requireStepReader(request, feature);
  if (investorsOnly && user.role.name !== "investor") {
    return { refusal: refuseStep(403, formLevel(investorStepsContent.errors.notInvestor)) };
  }
  const body = await readFormBody(request);
  if (!body.ok) return { refusal: refuseStep(body.status, formLevel(body.message)) };
  return { user, formData: body.formData };
}
