/**
 * Where an investor's NDA stands, as the status page and `GET /api/nda` show it: what is needed next, the
 * disclosure to consent to, the copy to review (offered now if it was not, which sets "NDA sent"), and the
 * signature with its hashes once given.
 */
import { NDA_DISCLOSURE_VERSION, ndaDisclosure, ndaMessages } from "~/content/nda";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { activeConsent, disclosureSha256 } from "./nda-consent.server";
import { copyToReview, type NdaCopy } from "./nda-copies.server";

export type NdaStep =
  | "details-needed"
  | "no-template"
  | "consent-needed"
  | "ready-to-sign"
  | "waiting-for-countersignature"
  | "completed"
  | "signed-outside";

export type NdaSignatureSummary = {
  kind: "portal" | "outside";
  signedAt: number;
  sha256: string | null;
  countersignedBy: string | null;
  countersignedAt: number | null;
  completedAt: number | null;
  completedSha256: string | null;
  reason: string | null;
};

export type InvestorNda = {
  step: NdaStep;
  oneSided: boolean;
  disclosure: { version: string; sha256: string; title: string; paragraphs: string[]; agree: string };
  consent: { id: string; givenAt: number; disclosureVersion: string } | null;
  copy: NdaCopy | null;
  signature: NdaSignatureSummary | null;
};

export async function signatureOf(userId: string): Promise<NdaSignatureSummary | null> {
  const row = await getDb().selectFrom("nda_signatures").selectAll().where("user_id", "=", userId).executeTakeFirst();
  if (!row) return null;
  const time = (value: number | null) => (value === null ? null : Number(value));
  return {
    kind: row.kind,
    signedAt: Number(row.signed_at),
    sha256: row.signed_sha256,
    countersignedBy: row.countersigned_by,
    countersignedAt: time(row.countersigned_at),
    completedAt: time(row.completed_at),
    completedSha256: row.completed_sha256,
    reason: row.reason,
  };
}

/**
 * The investor's NDA now; offers their copy if they are ready for one (details given, a template uploaded)
 * and it was not offered yet, or no longer matches the template or their details. Consent to electronic
 * records may come with the signature, so the copy is offered before it.
 */
export async function investorNda(user: { id: string; isNDASigned: boolean }, ip: string | null): Promise<InvestorNda> {
  const consent = await activeConsent(user.id);
  const signature = await signatureOf(user.id);
  const base = {
    oneSided: getEnv().nda.oneSided,
    disclosure: { version: NDA_DISCLOSURE_VERSION, sha256: disclosureSha256(), ...ndaDisclosure },
    consent: consent && { id: consent.id, givenAt: consent.givenAt, disclosureVersion: consent.disclosureVersion },
    signature,
  };
  if (signature?.kind === "portal") {
    return { ...base, copy: null, step: signature.completedAt === null ? "waiting-for-countersignature" : "completed" };
  }
  if (signature || user.isNDASigned) return { ...base, copy: null, step: "signed-outside" };
  const copy = await copyToReview(user.id, ip);
  if (!copy.ok) return { ...base, copy: null, step: stepWithoutCopy(copy.message) };
  return { ...base, copy: copy.copy, step: consent ? "ready-to-sign" : "consent-needed" };
}

/** No copy to offer: no template yet, or no name and address (or signed already, which the caller checked). */
function stepWithoutCopy(refusal: string): NdaStep {
  return refusal === ndaMessages.noTemplate ? "no-template" : "details-needed";
}
