/**
 * What the status page's NDA section needs: the state without offering a copy before consent, and the
 * factor; undefined where there is nothing to show (no template, or signed outside the portal), so the page
 * stays the manual path's.
 */
import type { PublicUser } from "~/models/account/user.server";
import { hasSecondFactor, secondFactorStatus } from "~/models/second-factor/second-factor.server";
import { investorNda } from "./nda-state.server";

export async function ndaSection(user: PublicUser, ip: string) {
  const [nda, factor] = await Promise.all([
    investorNda(user, ip, { offerBeforeConsent: false }),
    secondFactorStatus(user.id),
  ]);
  if (!["consent-needed", "ready-to-sign", "waiting-for-countersignature"].includes(nda.step)) return undefined;
  return {
    step: nda.step,
    fullName: user.fullName,
    hasSecondFactor: hasSecondFactor(factor),
    disclosure: nda.disclosure,
    copy: nda.copy && { templateVersion: nda.copy.templateNumber, sha256: nda.copy.sha256 },
  };
}
