/** The NDA's request bodies, for the API and the pages' forms alike: validated once, at the edge. */
import { z } from "zod";
import { REASON_MAX_LENGTH } from "~/content/investor-page";
import { ndaMessages } from "~/content/nda";
import { loginPasswordSchema } from "~/models/account/account-schemas.server";
import { secondFactorCodeSchema } from "~/models/second-factor/second-factor-schemas.server";

const agreed = (message: string) =>
  z.union([z.literal(true), z.literal("on"), z.literal("true")], { error: message }).transform(() => true as const);

export const ndaConsentSchema = z.object({
  agree: agreed(ndaMessages.consentNotTicked).meta({ description: "True: the investor agrees to the disclosure." }),
});

const sha256Schema = z
  .string({ error: ndaMessages.hashMismatch })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{64}$/, { error: ndaMessages.hashMismatch });

export const ndaSignSchema = z.object({
  typedName: z
    .string({ error: ndaMessages.nameMismatch })
    .max(200, { error: ndaMessages.nameMismatch })
    .meta({ description: "The investor's full name as on file (case, accents and extra spaces do not count)." }),
  copySha256: sha256Schema.meta({ description: "The SHA-256 (hex) of the copy reviewed, as GET /api/nda gives it." }),
  intent: agreed(ndaMessages.intentNeeded).meta({ description: "True: the investor intends to sign." }),
  code: secondFactorCodeSchema.optional().meta({
    description: "A code of the authenticator app or a recovery code, where the account has a second factor.",
  }),
});

/**
 * The status page's signature form: the box is `signIntent` (the form's `intent` names its button), with the
 * password; and `agree`, the consent to electronic records given with the signature, which the form asks
 * for while no consent is in force (the edge checks that, as it knows whether one is).
 */
export const ndaSignFormSchema = ndaSignSchema.omit({ intent: true }).extend({
  signIntent: agreed(ndaMessages.intentNeeded),
  password: loginPasswordSchema,
  agree: agreed(ndaMessages.consentNotTicked).optional(),
});

export const ndaCountersignSchema = z.object({
  investorId: z
    .string({ error: ndaMessages.notSigned })
    .min(1)
    .max(64)
    .meta({ description: "The investor's user id." }),
});

export const ndaRecordQuerySchema = z.object({
  investorId: z.string().min(1).max(64).meta({ description: "The investor's user id." }),
});

/** An investor's page marking the NDA completed by hand: the reason; the signed copy is the form's file. */
export const ndaOutsideFormSchema = z.object({
  intent: z.literal("nda-outside"),
  reason: z
    .string({ error: ndaMessages.outsideReasonRequired })
    .trim()
    .min(1, { error: ndaMessages.outsideReasonRequired })
    .max(REASON_MAX_LENGTH, { error: ndaMessages.outsideReasonTooLong(REASON_MAX_LENGTH) }),
});
