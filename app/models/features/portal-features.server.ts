/**
 * The firm's switches for what follows the materials (docs/decisions/0037): questions and answers,
 * qualification, indications of interest, each on or off; the words beside an indication; how long a
 * verification stands. One row, changed only by an administrator, with its audit row.
 */
import { z } from "zod";
import { portalFeaturesContent as words } from "~/content/portal-features";
import type { Actor } from "~/models/administrators/admin-result.server";
import { changeWithAudit } from "~/models/audit/audit.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";

export type PortalFeature = "questions" | "qualification" | "interest";

export type PortalFeatures = Record<PortalFeature, boolean> & {
  interestNotice: string;
  verificationDays: number;
};

export async function readPortalFeatures(): Promise<PortalFeatures> {
  const row = await getDb().selectFrom("portal_features").selectAll().executeTakeFirstOrThrow();
  return {
    questions: row.questions === 1,
    qualification: row.qualification === 1,
    interest: row.interest === 1,
    interestNotice: row.interest_notice,
    verificationDays: row.verification_days,
  };
}

export async function isFeatureOn(feature: PortalFeature): Promise<boolean> {
  return (await readPortalFeatures())[feature];
}

/** The words beside an indication: the firm's own, or the portal's when it gave none. */
export const interestNoticeOf = (features: PortalFeatures) =>
  features.interestNotice.trim() || words.defaultInterestNotice;

const checkbox = z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean());

/** The settings form: an unticked box is absent, and so off. */
export const portalFeaturesSchema = z.object({
  questions: checkbox,
  qualification: checkbox,
  interest: checkbox,
  interestNotice: z
    .string()
    .default("")
    .transform((text) => text.trim())
    .pipe(z.string().max(2000, { error: words.errors.noticeTooLong })),
  verificationDays: z.coerce
    .number({ error: words.errors.daysInvalid })
    .int({ error: words.errors.daysInvalid })
    .min(1, { error: words.errors.daysInvalid })
    .max(3650, { error: words.errors.daysInvalid }),
});

/** Stores the settings with an audit row that says what each now is. */
export async function setPortalFeatures({
  actor,
  values,
  ip,
}: {
  actor: Actor;
  values: PortalFeatures;
  ip?: string | null;
}): Promise<void> {
  await changeWithAudit(async (db, record) => {
    await db
      .updateTable("portal_features")
      .set({
        questions: values.questions ? 1 : 0,
        qualification: values.qualification ? 1 : 0,
        interest: values.interest ? 1 : 0,
        interest_notice: values.interestNotice,
        verification_days: values.verificationDays,
        updated_at: now(),
      })
      .where("only_row", "=", 1)
      .execute();
    record({
      actorId: actor.id,
      actorEmail: actor.email,
      action: "settings.changed",
      details: {
        questions: values.questions,
        qualification: values.qualification,
        interest: values.interest,
        verificationDays: values.verificationDays,
      },
      ip,
    });
  });
}
