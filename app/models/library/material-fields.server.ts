/**
 * The text fields of a materials upload sent to the API (the files are material-upload.server.ts's):
 * a title, a description and the audience, the chosen investors named by e-mail address.
 */
import { z } from "zod";
import { DESCRIPTION_MAX_LENGTH, TITLE_MAX_LENGTH } from "~/content/library";
import { libraryApiMessages as messages } from "~/content/library-api";
import { emailSchema } from "~/models/account/account-schemas.server";
import { normalizeEmail } from "~/models/account/user.server";
import { textField } from "~/models/investors/name-address-schema.server";
import { investorsByEmail } from "./library-audience.server";

export const materialFieldsSchema = z.object({
  title: textField(TITLE_MAX_LENGTH, { required: messages.titleRequired, notText: messages.titleRequired }).meta({
    description: "The document's name as investors see it; one line, no invisible characters.",
  }),
  description: textField(DESCRIPTION_MAX_LENGTH).default("").meta({ description: "A short description, one line." }),
  audience: z
    .enum(["signed", "chosen"], { error: messages.audienceInvalid })
    .default("signed")
    .meta({ description: "`signed`: every investor whose NDA is signed; `chosen`: only the investors in `chosen`." }),
  chosen: z
    .union([z.array(emailSchema), emailSchema.transform((email) => [email])])
    .optional()
    .meta({ description: "With `audience` `chosen`: an investor's e-mail address; repeat the part for each one." }),
});

const file = (description: string) => z.file().meta({ description });

/** A new document as the API documents it: the text fields, the file and, for a video, its captions. */
export const materialUploadSchema = materialFieldsSchema.extend({
  file: file("The document: a PDF (up to 50 MB) or an MP4 video (up to 1 GB), judged by its bytes."),
  captions: file("A video's captions: a WebVTT file (up to 2 MB).").optional(),
});

/** A new version as the API documents it: the file and, for a video, its captions; other parts are ignored. */
export const materialVersionUploadSchema = materialUploadSchema.pick({ file: true, captions: true });

export type MaterialFields = z.output<typeof materialFieldsSchema>;

/**
 * The chosen investors' ids, for a chosen audience (none for `signed`): each address must be an
 * investor's; otherwise the messages for `chosen`.
 */
export async function chosenInvestorIds(
  fields: MaterialFields,
): Promise<{ ok: true; ids: string[] } | { ok: false; messages: string[] }> {
  if (fields.audience !== "chosen") return { ok: true, ids: [] };
  const emails = [...new Set((fields.chosen ?? []).map(normalizeEmail))];
  if (emails.length === 0) return { ok: false, messages: [messages.chosenRequired] };
  const found = await investorsByEmail(emails);
  return found.ok ? { ok: true, ids: found.userIds } : { ok: false, messages: [found.message] };
}
