/**
 * An example for every plain value of the OpenAPI document: each field of its shapes that holds text, a
 * number or a boolean, and each parameter, gets JSON Schema's `examples`, made by the API page's
 * generator (openapi-example.server.ts) from the field's own schema. A reader, a client generator or a
 * linter finds one everywhere, none is written by hand, and each is valid against its schema.
 */
import { alternativesOf, fieldsOf, typesOf, valuesOf, type JsonSchema } from "./json-schema-subset.server";
import { exampleOf } from "./openapi-example.server";

const PLAIN_TYPES = new Set(["string", "integer", "number", "boolean"]);

type Parts = {
  schemas: Record<string, JsonSchema>;
  paths: Record<string, Record<string, JsonSchema>>;
};

/** Adds the examples in place, to the document's shapes and to its calls' parameters. */
export function addFieldExamples({ schemas, paths }: Parts): void {
  for (const schema of Object.values(schemas)) addToFields(schema, schemas);
  for (const operation of Object.values(paths).flatMap((methods) => Object.values(methods))) {
    for (const parameter of (operation.parameters as { name: string; schema: JsonSchema }[] | undefined) ?? []) {
      addExample(parameter.schema, parameter.name, schemas);
    }
  }
}

/** The fields of an object, of the objects and lists within it, and of each alternative. */
function addToFields(schema: JsonSchema, shapes: Record<string, JsonSchema>): void {
  for (const field of fieldsOf(schema)) {
    addExample(field.schema, field.name, shapes);
    addToFields(field.schema, shapes);
  }
  for (const inner of [schema.items, valuesOf(schema), ...(alternativesOf(schema)?.alternatives ?? [])]) {
    if (typeof inner === "object" && inner !== null) addToFields(inner as JsonSchema, shapes);
  }
}

function addExample(schema: JsonSchema, name: string, shapes: Record<string, JsonSchema>): void {
  if (schema.examples === undefined && isPlainValue(schema)) schema.examples = [exampleOf(schema, { shapes, name })];
}

/** Text, a number or a boolean, or null beside one: not an object, a list, a reference or a file's bytes. */
function isPlainValue(schema: JsonSchema): boolean {
  if (schema.$ref !== undefined || schema.format === "binary") return false;
  const choice = alternativesOf(schema);
  if (choice) return choice.alternatives.length > 0 && choice.alternatives.every(isPlainValue);
  const { types } = typesOf(schema);
  return types.length > 0 && types.every((type) => PLAIN_TYPES.has(type));
}
