/** What the library's forms accept: a document's title, description and audience (the pages' and the API's rules). */
import { z } from "zod";
import { DESCRIPTION_MAX_LENGTH, TITLE_MAX_LENGTH, libraryContent } from "~/content/library";
import { emailSchema } from "~/models/account/account-schemas.server";
import { textField } from "~/models/investors/name-address-schema.server";

const errors = libraryContent.errors;

/** The most addresses one chosen audience lists. */
export const CHOSEN_MAX = 500;

/** A document's id as the library's addresses carry it: a UUID. */
export const documentIdSchema = z
  .string({ error: errors.idInvalid })
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: errors.idInvalid })
  .transform((id) => id.toLowerCase());

export const documentTitleSchema = z
  .preprocess((value) => value ?? "", textField(TITLE_MAX_LENGTH, { required: errors.titleRequired }))
  .meta({ examples: ["Slide deck"] });

/** A short description: line breaks become spaces (it is shown as one paragraph); empty is fine. */
export const documentDescriptionSchema = z
  .preprocess(
    (value) => (typeof value === "string" ? value.replace(/\r\n?|\n/g, " ") : (value ?? "")),
    textField(DESCRIPTION_MAX_LENGTH),
  )
  .meta({ examples: ["The firm's plan, its market and its team, in twelve slides."] });

/** The chosen investors' addresses, one a line: each an address, listed once. */
const chosenEmailsSchema = z.preprocess(
  (value) => value ?? "",
  z
    .string()
    .transform((text) => [
      ...new Set(
        text
          .split(/\r\n?|\n/)
          .map((line) => line.trim())
          .filter(Boolean),
      ),
    ])
    .superRefine((lines, ctx) => {
      if (lines.length > CHOSEN_MAX) ctx.addIssue({ code: "custom", message: errors.tooManyChosen(CHOSEN_MAX) });
      for (const line of lines)
        if (!emailSchema.safeParse(line).success) ctx.addIssue({ code: "custom", message: errors.notAnEmail(line) });
    })
    .transform((lines) => [...new Set(lines.map((line) => line.toLowerCase()))]),
);

/** Every investor whose NDA is signed (the form's default choice), or the investors listed. */
export const audienceFieldsSchema = z
  .object({
    audience: z.enum(["signed", "chosen"], { error: errors.audienceRequired }),
    chosen: chosenEmailsSchema,
  })
  .superRefine((value, ctx) => {
    if (value.audience === "chosen" && value.chosen.length === 0)
      ctx.addIssue({ code: "custom", path: ["chosen"], message: errors.noneChosen });
  })
  .transform(({ audience, chosen }) => ({ audience, chosen: audience === "chosen" ? chosen : [] }));

export const documentDetailsSchema = z.object({
  title: documentTitleSchema,
  description: documentDescriptionSchema,
});

/** The upload form's text fields. */
export const newDocumentSchema = z.intersection(documentDetailsSchema, audienceFieldsSchema);
