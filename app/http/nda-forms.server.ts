/**
 * The status page's NDA form: one plain post that works without JavaScript, the signature. Where no
 * consent to electronic records is in force, the form shows the disclosure and asks its box with the
 * signature; the consent is recorded just before the signature, and only once everything else holds. The
 * signature asks "Confirm it's you" in the same form: the password, and a code where the account has a
 * second factor. A signature that completes the NDA (one-sided) leads straight to the materials.
 */
import { json } from "@remix-run/node";
import { ndaContent, ndaMessages } from "~/content/nda";
import { confirmIdentity } from "~/models/account/reauthentication.server";
import type { PublicUser } from "~/models/account/user.server";
import { activeConsent } from "~/models/nda/nda-consent.server";
import { ndaSignFormSchema } from "~/models/nda/nda-schemas.server";
import { signNda } from "~/models/nda/nda-signing.server";
import { parseSubmission } from "./form-submission.server";
import { redirectWithSuccess } from "./toast.server";

export const NDA_INTENTS = ["nda-sign"] as const;

export async function ndaFormAction(
  formData: FormData,
  { user, ip, userAgent }: { user: PublicUser; ip: string; userAgent: string | null },
) {
  const submission = parseSubmission(formData, ndaSignFormSchema, { keepEmpty: false });
  if (submission.status !== "success") return json({ nda: true, result: submission.reply() }, { status: 400 });
  const { password, code, signIntent, typedName, copySha256, agree } = submission.value;
  if (!agree && !(await activeConsent(user.id))) {
    return json(
      { nda: true, result: submission.reply({ fieldErrors: { agree: [ndaMessages.consentNotTicked] } }) },
      { status: 400 },
    );
  }
  const confirmed = await confirmIdentity({ user, proof: { password, code }, ip });
  if (!confirmed.ok) {
    return json(
      { nda: true, result: submission.reply({ formErrors: [confirmed.message] }) },
      { status: confirmed.status },
    );
  }
  const result = await signNda(user, {
    typedName,
    copySha256,
    intent: signIntent,
    consentWithSignature: agree === true,
    authMethod: confirmed.method,
    ip,
    userAgent,
  });
  if (!result.ok) {
    return json({ nda: true, result: submission.reply({ formErrors: [result.message] }) }, { status: result.status });
  }
  if (result.completed) return redirectWithSuccess("/financing/materials", ndaContent.signedComplete);
  return redirectWithSuccess("/financing", ndaContent.signedWaiting);
}

export function isNdaIntent(value: FormDataEntryValue | null): value is (typeof NDA_INTENTS)[number] {
  return (NDA_INTENTS as readonly unknown[]).includes(value);
}
