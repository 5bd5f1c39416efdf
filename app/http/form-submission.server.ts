import type { z } from "zod";
import { controlCharacterErrors } from "~/content/forms";
import type { FormReply } from "~/lib/form-reply";
import { hasControlCharacter, withoutControlCharacters } from "./control-characters.server";

export type FieldErrors = Record<string, string[]>;

type ReplyOptions = {
  /** Messages about the form as a whole (a refused login, a throttle). */
  formErrors?: string[];
  /** Messages by field name, e.g. from a use case that checks more than the schema. */
  fieldErrors?: FieldErrors;
  /** Fields never sent back to the page (passwords, the honeypot). */
  hideFields?: string[];
};

export type Submission<Value> =
  | { status: "success"; value: Value; reply: (options?: ReplyOptions) => FormReply }
  | { status: "error"; value?: undefined; reply: (options?: ReplyOptions) => FormReply };

/** Field messages keyed by field name, the shape of the API's `issues` and of a page form's reply. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join(".") : "";
    const list = (errors[key] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return errors;
}

/**
 * The reply with every message about a field the page does not show (a hidden `intent` a script
 * left out, a field sent that the form has not) moved to the form's own messages, so it is shown.
 */
export function formLevelBeyond(reply: FormReply, shownFields: string[]): FormReply {
  const error: FieldErrors = {};
  const formErrors: string[] = [];
  for (const [name, messages] of Object.entries(reply.error)) {
    if (shownFields.includes(name)) error[name] = messages;
    else formErrors.push(...messages);
  }
  return { ...reply, error: formErrors.length > 0 ? { ...error, "": formErrors } : error };
}

/**
 * Checks a posted form against a zod schema: the page's only real check (the
 * browser's as-you-type messages are a courtesy). An empty field counts as
 * missing unless `keepEmpty`, so a schema's "required" message is the one shown;
 * so does a file where text belongs. A name sent twice reaches the schema as a
 * list, which a text field refuses. A control character (control-characters.server.ts)
 * in any field, known to the schema or not, refuses the form with that field's
 * message; in a field's name, with the form's.
 */
export function parseSubmission<Schema extends z.ZodType>(
  formData: FormData,
  schema: Schema,
  { keepEmpty = false }: { keepEmpty?: boolean } = {},
): Submission<z.output<Schema>> {
  const values: Record<string, string> = {};
  const input: Record<string, unknown> = {};
  const controlErrors: FieldErrors = {};
  for (const name of new Set(formData.keys())) {
    if (hasControlCharacter(name)) {
      controlErrors[""] = [controlCharacterErrors.name];
      continue;
    }
    const all = formData.getAll(name);
    const value = all[0];
    if (all.some((entry) => typeof entry === "string" && hasControlCharacter(entry))) {
      controlErrors[name] = [controlCharacterErrors.field];
    }
    // The page shows the value back without them: a browser without JavaScript can send it again as it is.
    if (typeof value === "string") values[name] = withoutControlCharacters(value);
    input[name] = all.length > 1 ? all : typeof value === "string" && (value !== "" || keepEmpty) ? value : undefined;
  }
  const parsed = schema.safeParse(input);
  const schemaErrors = { ...(parsed.success ? {} : fieldErrorsOf(parsed.error)), ...controlErrors };
  const accepted = parsed.success && Object.keys(controlErrors).length === 0;

  const reply = ({ formErrors, fieldErrors, hideFields = [] }: ReplyOptions = {}): FormReply => {
    const error = { ...schemaErrors, ...fieldErrors };
    if (formErrors?.length) error[""] = formErrors;
    const initialValue = { ...values };
    for (const name of hideFields) delete initialValue[name];
    return { error, initialValue };
  };
  return accepted ? { status: "success", value: parsed.data, reply } : { status: "error", reply };
}
