/** The inputs of qualification: the investor's statement and the firm's verification. */
import { z } from "zod";
import { ACCREDITATION_CATEGORIES, investorStepsContent } from "~/content/investor-steps";
import { now } from "~/server/clock.server";

const errors = investorStepsContent.errors;
const categories = Object.keys(ACCREDITATION_CATEGORIES) as [keyof typeof ACCREDITATION_CATEGORIES];

/** A calendar date, YYYY-MM-DD, real and not after today (UTC). */
export const pastDateSchema = z
  .string({ error: errors.dateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: errors.dateInvalid })
  .refine(
    (text) => {
      const at = Date.parse(`${text}T00:00:00Z`);
      return Number.isFinite(at) && new Date(at).toISOString().startsWith(text) && at <= now();
    },
    { error: errors.dateInvalid },
  );

export const qualificationStatementSchema = z.object({
  category: z.enum(categories, { error: errors.categoryUnknown }),
  statedOn: pastDateSchema,
});
export type QualificationStatementInput = z.output<typeof qualificationStatementSchema>;

export const VERIFICATION_METHODS = Object.keys(investorStepsContent.methods) as [string, ...string[]];

export const verificationSchema = z.object({
  method: z.enum(VERIFICATION_METHODS, { error: errors.methodUnknown }),
  verifiedOn: pastDateSchema,
  note: z
    .string()
    .default("")
    .transform((text) => text.trim())
    .pipe(z.string().max(1000, { error: errors.noteTooLong })),
});
export type VerificationInput = z.output<typeof verificationSchema>;
