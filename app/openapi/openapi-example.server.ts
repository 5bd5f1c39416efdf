/**
 * An example value for each schema of the OpenAPI document, made from the schema alone, so that the
 * API page's example requests and answers can neither be written by hand nor drift from the calls.
 * The same schema always gives the same example, and each is valid against its schema (the unit test
 * validates every call's with ajv). A schema's own `examples` or `default` comes first.
 */
import { apiExampleValues as words } from "~/content/api-docs";
import {
  alternativesOf,
  fieldsOf,
  shapeName,
  supported,
  typesOf,
  valuesOf,
  type JsonSchema,
} from "./json-schema-subset.server";
import { exampleMatching } from "./pattern-example.server";

const FORMAT_EXAMPLES: Record<string, string> = {
  email: words.email,
  "date-time": words.dateTime,
  uuid: words.uuid,
  binary: words.file,
};

type Context = {
  /** The document's named schemas, which a `$ref` points into. */
  shapes: Record<string, JsonSchema>;
  /** The field or parameter the value is for: a text without format or pattern says its name. */
  name?: string;
  /** The names being expanded, to stop at a shape that contains itself. */
  expanding?: string[];
};

export function exampleOf(schema: JsonSchema, context: Context): unknown {
  supported(schema);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (typeof schema.$ref === "string") return referencedExample(schema.$ref, context);

  const choice = alternativesOf(schema);
  if (choice) {
    if (choice.alternatives.length === 0) return null;
    return exampleOf(choice.alternatives[0], context);
  }

  const { types } = typesOf(schema);
  const type = types[0] ?? (schema.properties ? "object" : undefined);
  switch (type) {
    case "object":
      return objectExample(schema, context);
    case "array":
      return arrayExample(schema, context);
    case "string":
      return stringExample(schema, context.name);
    case "integer":
    case "number":
      return numberExample(schema, type);
    case "boolean":
      return true;
    case undefined:
      // `{}` (any value) or `{ type: "null" }`: null is either.
      return null;
    default:
      return cannotExemplify(schema);
  }
}

function cannotExemplify(schema: JsonSchema): never {
  throw new Error(`The API page cannot make an example of ${JSON.stringify(schema)}`);
}

function referencedExample(ref: string, context: Context) {
  const name = shapeName(ref);
  const shape = context.shapes[name];
  if (!shape) throw new Error(`The document has no shape ${name}`);
  const expanding = context.expanding ?? [];
  if (expanding.includes(name)) throw new Error(`The shape ${name} contains itself: its example would never end`);
  return exampleOf(shape, { shapes: context.shapes, expanding: [...expanding, name], name: context.name });
}

/** Every field, optional ones too, so that the example shows them all; deprecated ones are left out. */
function objectExample(schema: JsonSchema, context: Context) {
  const example: Record<string, unknown> = {};
  for (const field of fieldsOf(schema)) {
    if (field.schema.deprecated === true && !field.required) continue;
    example[field.name] = exampleOf(field.schema, { ...context, name: field.name });
  }
  const values = valuesOf(schema);
  if (values && Object.keys(example).length === 0) {
    const key = schema.propertyNames
      ? exampleOf(schema.propertyNames as JsonSchema, { ...context, name: words.key })
      : words.key;
    example[String(key)] = exampleOf(values, { ...context, name: undefined });
  }
  return example;
}

function arrayExample(schema: JsonSchema, context: Context) {
  const count = Math.min(Math.max(1, Number(schema.minItems ?? 0)), Number(schema.maxItems ?? Infinity));
  const items = (schema.items as JsonSchema | undefined) ?? {};
  return Array.from({ length: count }, () => exampleOf(items, { ...context, name: undefined }));
}

function stringExample(schema: JsonSchema, name: string | undefined): string {
  const pattern = typeof schema.pattern === "string" ? schema.pattern : undefined;
  const format = typeof schema.format === "string" ? schema.format : undefined;
  if (format && !(format in FORMAT_EXAMPLES)) cannotExemplify(schema);
  const candidate = format ? FORMAT_EXAMPLES[format] : fitted(name ?? words.text, schema);
  // A format's example meets the pattern that enforces the format; a field's name rarely meets a pattern.
  const text = pattern && !new RegExp(pattern, "u").test(candidate) ? exampleMatching(pattern) : candidate;
  if (!fitsLength(text, schema)) cannotExemplify(schema);
  return text;
}

/** A word repeated up to the least length, cut at the greatest. */
function fitted(word: string, schema: JsonSchema) {
  const least = Number(schema.minLength ?? 0);
  const greatest = Number(schema.maxLength ?? Infinity);
  return word.padEnd(least, word).slice(0, greatest);
}

function fitsLength(text: string, schema: JsonSchema) {
  const length = [...text].length;
  return length >= Number(schema.minLength ?? 0) && length <= Number(schema.maxLength ?? Infinity);
}

/** 1, or the bound nearest to it. */
function numberExample(schema: JsonSchema, type: "integer" | "number") {
  const step = type === "integer" ? 1 : Number.EPSILON;
  const least = Math.max(
    Number(schema.minimum ?? -Infinity),
    typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + step : -Infinity,
  );
  const greatest = Math.min(
    Number(schema.maximum ?? Infinity),
    typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum - step : Infinity,
  );
  const value = Math.min(Math.max(1, least), greatest);
  return type === "integer" ? Math.ceil(value) : value;
}
