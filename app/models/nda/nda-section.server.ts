/**
 * What the status page's NDA section needs: the state (offering the copy once the details are given, which
 * sets "NDA sent"), and the factor; undefined where there is nothing to show (no template, or signed outside
 * the portal), so the page stays the manual path's. `offered` says the copy is on offer now, so the page can
 * show the NDA sent although its session's user was read before the offer.
 */
import type { PublicUser } from "~/models/account/user.server";
import { hasSecondFactor, secondFactorStatus } from "~/models/second-factor/second-factor.server";
import { investorNda } from "./nda-state.server";

export async function ndaSection(user: PublicUser, ip: string) {
  const [nda, factor] = await Promise.all([investorNda(user, ip), secondFactorStatus(user.id)]);
  if (!["consent-needed", "ready-to-sign", "waiting-for-countersignature"].includes(nda.step)) return undefined;
  return {
    step: nda.step,
    offered: nda.copy !== null,
    fullName: user.fullName,
    hasSecondFactor: hasSecondFactor(factor),
    disclosure: nda.disclosure,
    copy: nda.copy && { templateVersion: nda.copy.templateNumber, sha256: nda.copy.sha256 },
  };
}
