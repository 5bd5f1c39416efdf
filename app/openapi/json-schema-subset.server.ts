/**
 * The part of JSON Schema 2020-12 that the OpenAPI document (openapi.server.ts) uses, as the API page
 * reads it: its example values (openapi-example.server.ts) and its types in words (openapi-words.server.ts).
 * A keyword outside this list throws rather than being skipped, so a schema the page would describe or
 * exemplify wrongly fails the unit test instead of reaching a reader.
 */

export type JsonSchema = { [keyword: string]: unknown };

const KEYWORDS = new Set([
  // What a value is.
  "type",
  "enum",
  "const",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "items",
  "minItems",
  "maxItems",
  "$ref",
  "anyOf",
  "oneOf",
  // Words and examples, which change no value's validity.
  "title",
  "description",
  "deprecated",
  "examples",
  "default",
  // A file's part of a multipart body: its bytes as they are (an annotation in JSON Schema 2020-12).
  "contentEncoding",
]);

export const SCHEMA_PATH = "#/components/schemas/";

/** The schema itself, after checking that the page knows each of its keywords. */
export function supported(schema: JsonSchema): JsonSchema {
  const unknown = Object.keys(schema).filter((keyword) => !KEYWORDS.has(keyword));
  if (unknown.length > 0) throw new Error(`The API page does not know the keyword(s) ${unknown.join(", ")}`);
  return schema;
}

/** The component's name a `$ref` points to, such as `PublicUser`. */
export function shapeName(ref: string): string {
  if (!ref.startsWith(SCHEMA_PATH)) throw new Error(`The API page follows only component references, not ${ref}`);
  return ref.slice(SCHEMA_PATH.length);
}

/** The types a schema allows, `null` apart: `type: ["string", "null"]` is a string that may be null. */
export function typesOf(schema: JsonSchema): { types: string[]; nullable: boolean } {
  const types = schema.type === undefined ? [] : ([] as string[]).concat(schema.type as string | string[]);
  return { types: types.filter((type) => type !== "null"), nullable: types.includes("null") };
}

/** The alternatives of `anyOf` or `oneOf`, `{ type: "null" }` apart. */
export function alternativesOf(schema: JsonSchema): { alternatives: JsonSchema[]; nullable: boolean } | null {
  const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (!alternatives) return null;
  const isNull = (alternative: JsonSchema) => alternative.type === "null";
  return {
    alternatives: alternatives.filter((alternative) => !isNull(alternative)),
    nullable: alternatives.some(isNull),
  };
}

/** An object's fields by name, with whether each must be present. */
export function fieldsOf(schema: JsonSchema): { name: string; schema: JsonSchema; required: boolean }[] {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {}).map(([name, field]) => ({
    name,
    schema: field,
    required: required.has(name),
  }));
}

/** A record's value schema: `additionalProperties` as a schema, not as `false`. */
export function valuesOf(schema: JsonSchema): JsonSchema | null {
  const values = schema.additionalProperties;
  return typeof values === "object" && values !== null ? (values as JsonSchema) : null;
}
