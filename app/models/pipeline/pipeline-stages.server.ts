/**
 * The raise's stages, each an investor can have reached, in order; and which investors are at each, as
 * a condition on `users` that the pipeline counts with and the investor table filters by.
 */
import { sql, type RawBuilder } from "kysely";
import type { PipelineStage } from "~/lib/pipeline-stages";

export { PIPELINE_STAGES, type PipelineStage } from "~/lib/pipeline-stages";

/** The latest verification of each investor that has not expired at `at`. */
const standingVerification = (at: number) => sql`exists (
  select 1 from verifications v where v.user_id = users.id and v.expires_at > ${at}
    and not exists (select 1 from verifications w where w.user_id = v.user_id
      and (w.created_at > v.created_at or (w.created_at = v.created_at and w.id > v.id))))`;

/** The latest indication of each investor, not a withdrawal. */
const standingIndication = sql`exists (
  select 1 from interest_indications i where i.user_id = users.id and i.withdrawn = 0
    and not exists (select 1 from interest_indications j where j.user_id = i.user_id
      and (j.created_at > i.created_at or (j.created_at = i.created_at and j.id > i.id))))`;

/** The condition on a `users` row (its table named `users`) of having reached the stage. */
export function stageCondition(stage: PipelineStage, at: number): RawBuilder<boolean> {
  switch (stage) {
    case "signed_up":
      return sql<boolean>`1 = 1`;
    case "verified":
      return sql<boolean>`users.email_verified_at is not null`;
    case "details":
      return sql<boolean>`(users.email_verified_at is not null and trim(users.full_name) <> '' and trim(users.address) <> '')`;
    case "nda_offered":
      return sql<boolean>`users.is_nda_sent = 1`;
    case "nda_signed":
      return sql<boolean>`users.is_nda_signed = 1`;
    case "read":
      return sql<boolean>`exists (select 1 from document_readers r where r.user_id = users.id)`;
    case "qualified":
      return sql<boolean>`${standingVerification(at)}`;
    case "indicated":
      return sql<boolean>`${standingIndication}`;
  }
}
