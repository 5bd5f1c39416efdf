/**
 * An investor's NDA record for administrators (their page and `GET /api/nda/record`): the template version,
 * each step with its time and actor (from the audit trail), the signer's evidence, the hashes and the files.
 */
import type { NdaEvidence, NdaRecordStep } from "~/lib/nda-record";
import { getDb } from "~/server/db.server";
import { signatureOf, type NdaSignatureSummary } from "./nda-state.server";

const RECORD_ACTIONS = [
  "nda.offered",
  "nda.opened",
  "nda.consent.given",
  "nda.consent.withdrawn",
  "nda.signed",
  "nda.countersigned",
  "nda.completed",
  "nda.mailed",
  "nda.downloaded",
  "nda.recorded_outside",
  "nda.outside_removed",
];

export type NdaRecord = {
  templateVersion: number | null;
  steps: NdaRecordStep[];
  evidence: NdaEvidence | null;
  signature: NdaSignatureSummary | null;
  /** Which files there are: the copy offered, the investor's signed file, the fully signed file. */
  files: { copy: boolean; signed: boolean; completed: boolean; outside: boolean };
};

export async function ndaRecord(userId: string): Promise<NdaRecord> {
  const db = getDb();
  const [steps, row, offered, signature] = await Promise.all([
    db
      .selectFrom("audit_events")
      .select(["id", "action", "at", "actor_email"])
      .where("target_id", "=", userId)
      .where("action", "in", RECORD_ACTIONS)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("nda_signatures")
      .leftJoin("nda_copies", "nda_copies.id", "nda_signatures.copy_id")
      .leftJoin("nda_templates", "nda_templates.id", "nda_copies.template_id")
      .select([
        "nda_signatures.typed_name",
        "nda_signatures.email",
        "nda_signatures.ip",
        "nda_signatures.user_agent",
        "nda_signatures.auth_method",
        "nda_signatures.consent_id",
        "nda_signatures.signed_blob_id",
        "nda_signatures.completed_blob_id",
        "nda_signatures.kind",
        "nda_copies.sha256 as copy_sha256",
        "nda_templates.number",
      ])
      .where("nda_signatures.user_id", "=", userId)
      .executeTakeFirst(),
    db
      .selectFrom("nda_copies")
      .innerJoin("nda_templates", "nda_templates.id", "nda_copies.template_id")
      .select("nda_templates.number")
      .where("nda_copies.user_id", "=", userId)
      .where("nda_copies.superseded_at", "is", null)
      .executeTakeFirst(),
    signatureOf(userId),
  ]);
  const version = row?.number ?? offered?.number;
  return {
    templateVersion: version === undefined || version === null ? null : Number(version),
    steps: steps.map((step) => ({
      auditId: Number(step.id),
      action: step.action,
      at: Number(step.at),
      by: step.actor_email,
    })),
    evidence: row
      ? {
          typedName: row.typed_name,
          email: row.email,
          ip: row.ip,
          userAgent: row.user_agent,
          authMethod: row.auth_method,
          copySha256: row.copy_sha256,
          consentId: row.consent_id,
        }
      : null,
    signature,
    files: {
      copy: !!offered || !!row?.copy_sha256,
      signed: !!row?.signed_blob_id && row.kind === "portal",
      completed: !!row?.completed_blob_id && row.kind === "portal",
      outside: !!row?.signed_blob_id && row.kind === "outside",
    },
  };
}
