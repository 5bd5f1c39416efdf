/** An indication of interest as the page and the API read it: whole U.S. dollars, a range optional. */
import { z } from "zod";
import { investorStepsContent } from "~/content/investor-steps";

const errors = investorStepsContent.errors;

/** Ten billion dollars: more is taken for a slip of the keyboard. */
export const MAX_INTEREST_DOLLARS = 10_000_000_000;

/** "250000", "250,000" or "$250,000" on a page; a number in JSON. */
const dollars = z.preprocess(
  (value) => (typeof value === "string" ? value.replace(/[$,\s]/g, "") : value),
  z
    .union([z.number(), z.string().regex(/^\d+$/, { error: errors.amountInvalid }).transform(Number)], {
      error: errors.amountInvalid,
    })
    .pipe(
      z
        .number({ error: errors.amountInvalid })
        .int({ error: errors.amountInvalid })
        .min(1, { error: errors.amountInvalid })
        .max(MAX_INTEREST_DOLLARS, { error: errors.amountTooLarge }),
    ),
);

export const interestSchema = z
  .object({
    amount: dollars,
    low: dollars.optional(),
    high: dollars.optional(),
    note: z
      .string()
      .default("")
      .transform((text) => text.trim())
      .pipe(z.string().max(1000, { error: errors.noteTooLong })),
  })
  .refine((input) => (input.low === undefined) === (input.high === undefined), {
    error: errors.rangeHalf,
    path: ["low"],
  })
  .refine((input) => input.low === undefined || input.high === undefined || input.low <= input.high, {
    error: errors.rangeReversed,
    path: ["low"],
  });
export type InterestInput = z.output<typeof interestSchema>;
