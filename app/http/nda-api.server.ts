/**
 * The NDA's API calls (docs/requirements.md, "The JSON API"): the investor's state, consent, signature and
 * file; for administrators, the countersignature and the record. Times are ISO 8601 here.
 */
import type { NdaRecord } from "~/models/nda/nda-record.server";
import type { InvestorNda, NdaSignatureSummary } from "~/models/nda/nda-state.server";

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** The investor's NDA as `GET /api/nda` answers it. */
export function ndaStateJson(nda: InvestorNda) {
  return {
    step: nda.step,
    oneSided: nda.oneSided,
    disclosure: nda.disclosure,
    consent: nda.consent && {
      id: nda.consent.id,
      givenAt: iso(nda.consent.givenAt)!,
      disclosureVersion: nda.consent.disclosureVersion,
    },
    copy: nda.copy && {
      templateVersion: nda.copy.templateNumber,
      sha256: nda.copy.sha256,
      offeredAt: iso(nda.copy.offeredAt)!,
    },
    signature: signatureJson(nda.signature),
    links: { document: "/api/nda/document", consent: "/api/nda/consent", sign: "/api/nda/sign" },
  };
}

function signatureJson(signature: NdaSignatureSummary | null) {
  return (
    signature && {
      kind: signature.kind,
      signedAt: iso(signature.signedAt)!,
      sha256: signature.sha256,
      countersignedAt: iso(signature.countersignedAt),
      completedAt: iso(signature.completedAt),
      completedSha256: signature.completedSha256,
    }
  );
}

/** An investor's NDA record as `GET /api/nda/record` answers it. */
export function ndaRecordJson(record: NdaRecord) {
  return {
    templateVersion: record.templateVersion,
    steps: record.steps.map((step) => ({ ...step, at: iso(step.at)! })),
    evidence: record.evidence,
    signature: signatureJson(record.signature),
    files: record.files,
  };
}
