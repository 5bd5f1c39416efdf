/**
 * NUL and the other C0 control characters but tab, line feed and carriage return: no text the site takes
 * from a client (the path and query, a form's fields, a JSON body's fields and names) may hold one
 * (docs/requirements.md, "Errors and refusals"). PostgreSQL cannot keep a NUL in text and fails the
 * query, where SQLite stores it, so the edge refuses them before either engine sees one: both answer
 * the same 400. Schemas may refuse more (a one-line field takes no line break, a name no DEL).
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/** The text without them: what a page may show back of a refused value. */
export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, "");
}

/** Whether a query string (`?a=b`, or without its `?`) holds one in a name or value, decoded as a loader reads it. */
export function queryHasControlCharacter(search: string): boolean {
  for (const [name, value] of new URLSearchParams(search)) {
    if (hasControlCharacter(name) || hasControlCharacter(value)) return true;
  }
  return false;
}

/**
 * The fields of a parsed JSON value whose text or name holds one, by path (`response.id`, `ids.0`): a
 * name is shown with its control characters escaped, as JSON writes them.
 */
export function fieldsWithControlCharacters(value: unknown, path: string[] = []): string[] {
  if (typeof value === "string") return hasControlCharacter(value) ? [fieldName(path)] : [];
  if (typeof value !== "object" || value === null) return [];
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  return entries.flatMap(([key, item]) => {
    const here = [...path, key.replace(CONTROL_CHARACTERS, escaped)];
    return hasControlCharacter(key) ? [fieldName(here)] : fieldsWithControlCharacters(item, here);
  });
}

function escaped(character: string) {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

function fieldName(path: string[]) {
  return path.length > 0 ? path.join(".") : "body";
}
