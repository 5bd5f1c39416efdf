/**
 * A schema of the OpenAPI document said in words for the API page: "string, e-mail, at most 254
 * characters", "integer from 1 to 500", "one of: investor, administrator", "list of PublicUser". The
 * words are parts, so that the page can show a named shape as a link to it and a value as code.
 */
import { apiTypeWords as words } from "~/content/api-docs";
import {
  alternativesOf,
  fieldsOf,
  shapeName,
  supported,
  typesOf,
  valuesOf,
  type JsonSchema,
} from "./json-schema-subset.server";

export type WordPart = string | { shape: string } | { code: string };
export type TypeWords = WordPart[];

/** zod's bounds of any whole number JavaScript holds exactly: no bound a reader needs to know. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

export function typeInWords(schema: JsonSchema): TypeWords {
  supported(schema);
  if (typeof schema.$ref === "string") return [{ shape: shapeName(schema.$ref) }];
  if ("const" in schema) return [words.always, valueOf(schema.const)];
  if (Array.isArray(schema.enum)) {
    return schema.enum.length === 1
      ? [words.always, valueOf(schema.enum[0])]
      : [words.oneOf, ...joined(schema.enum.map((value) => [valueOf(value)]))];
  }

  const choice = alternativesOf(schema);
  if (choice) {
    const alternatives = choice.alternatives.map(typeInWords);
    const either = alternatives.length === 1 ? alternatives[0] : [words.oneOf, ...joined(alternatives)];
    return choice.nullable ? [...either, words.orNull] : either;
  }

  const { types, nullable } = typesOf(schema);
  if (types.length === 0) return [schema.properties ? words.object : nullable ? words.null : words.anything];
  const described = joined(
    types.map((type) => typeOfKind(type, schema)),
    words.or,
  );
  return nullable ? [...described, words.orNull] : described;
}

function typeOfKind(type: string, schema: JsonSchema): TypeWords {
  switch (type) {
    case "string":
      return stringWords(schema);
    case "integer":
    case "number": {
      const least = bound(schema.minimum, schema.exclusiveMinimum, +1, type);
      const greatest = bound(schema.maximum, schema.exclusiveMaximum, -1, type);
      return [words[type] + words.range(least, greatest)];
    }
    case "boolean":
      return [words.boolean];
    case "array": {
      const items = schema.items ? typeInWords(schema.items as JsonSchema) : [words.anything];
      const counts = words.count(numberOf(schema.minItems), numberOf(schema.maxItems), words.items);
      return counts ? [words.listOf, ...items, counts] : [words.listOf, ...items];
    }
    case "object": {
      const values = valuesOf(schema);
      return values && fieldsOf(schema).length === 0 ? [words.mapOf, ...typeInWords(values)] : [words.object];
    }
    default:
      throw new Error(`The API page cannot say the type ${type} in words`);
  }
}

function stringWords(schema: JsonSchema): TypeWords {
  const format = typeof schema.format === "string" ? schema.format : undefined;
  if (format && !(format in words.formats)) throw new Error(`The API page cannot say the format ${format} in words`);
  const lengths = words.count(numberOf(schema.minLength), numberOf(schema.maxLength), words.characters);
  const text = words.string + (format ? `, ${words.formats[format]}` : "") + lengths;
  // A format's pattern only spells the format out; a pattern of its own is shown as it is.
  return typeof schema.pattern === "string" && !format ? [text + words.matching, { code: schema.pattern }] : [text];
}

/** The least or greatest value a number may take, an exclusive bound made inclusive for a whole number. */
function bound(inclusive: unknown, exclusive: unknown, step: 1 | -1, type: "integer" | "number") {
  if (typeof exclusive === "number") {
    if (type === "integer") return exclusive + step;
    throw new Error("The API page cannot say an exclusive bound of a fractional number in words");
  }
  return typeof inclusive === "number" && !SAFE_INTEGER_BOUNDS.has(inclusive) ? inclusive : undefined;
}

function numberOf(value: unknown) {
  return typeof value === "number" && value > 0 ? value : undefined;
}

function valueOf(value: unknown): WordPart {
  return { code: typeof value === "string" ? value : JSON.stringify(value) };
}

/** `a, b, c`, with a word of choice between the parts. */
function joined(parts: TypeWords[], separator: string = words.separator): TypeWords {
  return parts.flatMap((part, index) => (index === 0 ? part : [separator, ...part]));
}
