/**
 * The JSON API's plumbing, used by every /api resource route: answers, errors
 * (`{ message }`, plus `issues` for field errors), strict body reading, and the
 * bearer-token guard.
 */
import { json } from "@remix-run/node";
import type { z } from "zod";
import { apiMessages } from "~/content/api-messages";
import { AUTH_BODY_LIMIT_BYTES } from "~/content/constants";
import { fieldsWithControlCharacters, hasControlCharacter } from "./control-characters.server";
import { fieldErrorsOf, type FieldErrors } from "./form-submission.server";
import type { Refusal } from "./retry-after";

/** How a field's expected type reads in a message. */
const EXPECTED: Record<string, string> = {
  string: "text",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
};

/**
 * A message for a person where a schema gave none of its own: zod's defaults ("Invalid input: expected
 * string, received undefined") name neither the field nor what to send. The schemas' own messages win.
 */
function plainIssueMessage(issue: z.core.$ZodRawIssue): string {
  const field = issue.path?.length ? issue.path.join(".") : "body";
  if (issue.code === "invalid_type") {
    return issue.input === undefined
      ? apiMessages.fieldRequired(field)
      : apiMessages.fieldType(field, EXPECTED[issue.expected] ?? issue.expected);
  }
  return apiMessages.fieldInvalid(field);
}

export function apiJson<T>(data: T, init?: ResponseInit) {
  return json(data, init);
}

type ErrorExtra = {
  issues?: FieldErrors;
  retryAfterSeconds?: number;
  headers?: HeadersInit;
};

/** `{ message }` with the status; a 401 names the Bearer scheme, a 429 says when to retry. */
export function apiError(status: number, message: string, extra: ErrorExtra = {}) {
  const headers = new Headers(extra.headers);
  if (status === 401 && !headers.has("WWW-Authenticate")) headers.set("WWW-Authenticate", 'Bearer realm="api"');
  if (extra.retryAfterSeconds !== undefined) headers.set("Retry-After", String(extra.retryAfterSeconds));
  const body = extra.issues && Object.keys(extra.issues).length > 0 ? { message, issues: extra.issues } : { message };
  return json(body, { status, headers });
}

/** A use case's refusal as the API answers it: its status and message, and `Retry-After` when it has one. */
export function apiRefusal({ status, message, retryAfterSeconds }: Refusal & { message: string }) {
  return apiError(status, message, { retryAfterSeconds });
}

/** 400 with `issues`: these fields hold a control character (control-characters.server.ts). */
function controlCharacterRefusal(fields: string[]) {
  const issues = Object.fromEntries(fields.map((field) => [field, [apiMessages.controlCharacter(field)]]));
  return apiError(400, apiMessages.controlCharacter(fields[0]), { issues });
}

/** A value from the URL (a path parameter) checked against `schema`, and for control characters; throws 400 with `issues` otherwise. */
export function readApiParam<Schema extends z.ZodType>(name: string, value: unknown, schema: Schema): z.output<Schema> {
  if (typeof value === "string" && hasControlCharacter(value)) throw controlCharacterRefusal([name]);
  const parsed = schema.safeParse(value, { error: plainIssueMessage });
  if (parsed.success) return parsed.data;
  const messages = fieldErrorsOf(parsed.error)[""] ?? [apiMessages.fieldInvalid(name)];
  throw apiError(400, messages[0], { issues: { [name]: messages } });
}

/**
 * The URL's query checked against `schema` (a name given twice counts once: its first value); 400 with
 * `issues` otherwise, and for a control character in any name or value.
 */
export function readApiQuery<Schema extends z.ZodType>(request: Request, schema: Schema): z.output<Schema> {
  const { searchParams } = new URL(request.url);
  const tainted = new Set([...searchParams].flatMap(([name, value]) => fieldsWithControlCharacters({ [name]: value })));
  if (tainted.size > 0) throw controlCharacterRefusal([...tainted]);
  const query: Record<string, string> = {};
  for (const [name, value] of searchParams) query[name] ??= value;
  const parsed = schema.safeParse(query, { error: plainIssueMessage });
  if (parsed.success) return parsed.data;
  const issues = fieldErrorsOf(parsed.error);
  throw apiError(400, Object.values(issues).flat()[0] ?? apiMessages.fieldInvalid("query"), { issues });
}

/** 405 with the methods the route does answer. */
export function methodNotAllowed(allow: string[]) {
  return apiError(405, apiMessages.methodNotAllowed, { headers: { Allow: allow.join(", ") } });
}

/**
 * The request's JSON object, checked against `schema`; throws the error
 * Response instead: 413 over 16 KiB, 415 for another content type, 400 for
 * bad UTF-8, malformed JSON, a body that is not an object, a field given
 * twice, a control character in any field or name, or fields the schema
 * refuses (the last two with `issues`). Unknown fields are dropped.
 */
export async function readJsonBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.output<Schema>> {
  const value = await readJsonObject(request, { allowEmpty: false });
  const tainted = fieldsWithControlCharacters(value);
  if (tainted.length > 0) throw controlCharacterRefusal(tainted);
  const parsed = schema.safeParse(value, { error: plainIssueMessage });
  if (!parsed.success) {
    const issues = fieldErrorsOf(parsed.error);
    throw apiError(400, Object.values(issues).flat()[0] ?? apiMessages.notAnObject, { issues });
  }
  return parsed.data;
}

/** For calls whose payload is empty (refresh, logout): nothing, or a JSON object whose fields are ignored. */
export async function readEmptyBody(request: Request): Promise<void> {
  await readJsonObject(request, { allowEmpty: true });
}

async function readJsonObject(
  request: Request,
  { allowEmpty }: { allowEmpty: boolean },
): Promise<Record<string, unknown> | undefined> {
  const bytes = await readBodyCapped(request, AUTH_BODY_LIMIT_BYTES);
  if (bytes.byteLength === 0 && allowEmpty) return undefined;
  if (!isJsonContentType(request.headers.get("Content-Type"))) throw apiError(415, apiMessages.unsupportedMediaType);

  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw apiError(400, apiMessages.notUtf8);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw apiError(400, apiMessages.malformedJson);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw apiError(400, apiMessages.notAnObject);
  const repeated = findRepeatedKey(text);
  if (repeated !== null) throw apiError(400, apiMessages.repeatedField(repeated));
  return value as Record<string, unknown>;
}

function isJsonContentType(header: string | null) {
  if (!header) return false;
  const [type, ...parameters] = header.split(";").map((part) => part.trim().toLowerCase());
  if (type !== "application/json") return false;
  const charset = parameters
    .find((p) => p.startsWith("charset="))
    ?.slice("charset=".length)
    .replace(/"/g, "");
  return charset === undefined || charset === "utf-8" || charset === "utf8";
}

/** Reads at most `limit` bytes, whatever Content-Length claims (server.js checks the header first). */
async function readBodyCapped(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > limit) throw apiError(413, apiMessages.tooLarge);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw apiError(413, apiMessages.tooLarge);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * JSON.parse keeps the last of two equal keys; `{"email":"a","email":"b"}` is
 * ambiguous, so it is refused. Scans text that JSON.parse has already accepted.
 */
export function findRepeatedKey(text: string): string | null {
  const objects: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const current = objects[objects.length - 1];
      if (current && expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (current.has(key)) return key;
        current.add(key);
        expectKey = false;
      }
      i = end;
    } else if (char === "{") {
      objects.push(new Set());
      expectKey = true;
    } else if (char === "[") {
      objects.push(null);
    } else if (char === "}" || char === "]") {
      objects.pop();
    } else if (char === ",") {
      expectKey = objects[objects.length - 1] != null;
    } else if (char === ":") {
      expectKey = false;
    }
  }
  return null;
}
