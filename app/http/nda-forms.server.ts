/**
 * The status page's NDA forms (consent, signature): plain posts that work without JavaScript. The
 * signature asks "Confirm it's you" in the same form: the password, and a code where the account has a
 * second factor.
 */
import { json } from "@remix-run/node";
import { ndaContent } from "~/content/nda";
import { confirmIdentity } from "~/models/account/reauthentication.server";
import type { PublicUser } from "~/models/account/user.server";
import { giveConsent } from "~/models/nda/nda-consent.server";
import { copyToReview } from "~/models/nda/nda-copies.server";
import { ndaSignFormSchema } from "~/models/nda/nda-schemas.server";
import { signNda } from "~/models/nda/nda-signing.server";
import { formRefusal } from "./form-body.server";
import { parseSubmission } from "./form-submission.server";
import { redirectWithSuccess } from "./toast.server";

export const NDA_INTENTS = ["nda-consent", "nda-sign"] as const;

export async function ndaFormAction(
  intent: (typeof NDA_INTENTS)[number],
  formData: FormData,
  { user, ip, userAgent }: { user: PublicUser; ip: string; userAgent: string | null },
) {
  if (intent === "nda-consent") {
    const result = await giveConsent(user, { agreed: formData.get("agree") === "on", ip, userAgent });
    if (!result.ok) return json({ nda: true, result: formRefusal(result.message) }, { status: result.status });
    // Agreeing offers the copy ("NDA sent") now, not in the next page's loader: that page reads the investor
    // before it would offer, and would show the NDA not sent and the details still correctable.
    await copyToReview(user.id, ip);
    return redirectWithSuccess("/financing", ndaContent.consented);
  }
  const submission = parseSubmission(formData, ndaSignFormSchema, { keepEmpty: false });
  if (submission.status !== "success") return json({ nda: true, result: submission.reply() }, { status: 400 });
  const { password, code, signIntent, typedName, copySha256 } = submission.value;
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
    authMethod: confirmed.method,
    ip,
    userAgent,
  });
  if (!result.ok) {
    return json({ nda: true, result: submission.reply({ formErrors: [result.message] }) }, { status: result.status });
  }
  return redirectWithSuccess("/financing", result.completed ? ndaContent.signedComplete : ndaContent.signedWaiting);
}

export function isNdaIntent(value: FormDataEntryValue | null): value is (typeof NDA_INTENTS)[number] {
  return (NDA_INTENTS as readonly unknown[]).includes(value);
}
