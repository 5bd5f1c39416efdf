/**
 * The OpenAPI document as the API page (/api/docs) shows it: its calls grouped by tag, each with its
 * parameters, body and answers in words and an example request and answer; its shapes field by field.
 * Made once, as the document is: neither changes while the server runs.
 */
import { apiTypeWords as words } from "~/content/api-docs";
import { fieldsOf, typesOf, type JsonSchema } from "./json-schema-subset.server";
import {
  answerAsHttp,
  answerBodyOf,
  exampleAnswer,
  exampleRequest,
  requestAsHttp,
  requestBodyOf,
  type DocumentOperation,
} from "./openapi-call-example.server";
import { typeInWords, type TypeWords } from "./openapi-words.server";
import { openApiDocument, type OpenApiDocument } from "./openapi.server";

export type FieldView = {
  /** A nested field is named by its path: `role.name`. */
  name: string;
  required: boolean;
  deprecated: boolean;
  description: string;
  type: TypeWords;
  /** The schema's example, as JSON; none for an object, a list or a file. */
  example?: string;
};

export type OperationView = {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tag: string;
  security: string[];
  parameters: { in: string; fields: FieldView[] }[];
  body?: { required: boolean; type: TypeWords };
  responses: { status: string; description: string; body: TypeWords; headers: string[] }[];
  example: { request: string; answer: string };
};

export type ShapeView = {
  name: string;
  description: string;
  /** The shape's type, when it is not an object whose fields say it all. */
  type?: TypeWords;
  fields: FieldView[];
};

let view: ReturnType<typeof documentView> | undefined;

export function openApiView() {
  view ??= documentView(openApiDocument());
  return view;
}

function documentView(document: OpenApiDocument) {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) =>
      operationView(document, { path, method, operation: operation as DocumentOperation }),
    ),
  );
  return {
    title: document.info.title,
    version: document.info.version,
    description: document.info.description,
    tags: document.tags,
    operations,
    securitySchemes: Object.entries(document.components.securitySchemes).map(([name, scheme]) => ({
      name,
      description: String(scheme.description),
    })),
    shapes: Object.entries(document.components.schemas).map(([name, schema]) => shapeView(name, schema)),
  };
}

function operationView(
  document: OpenApiDocument,
  call: { path: string; method: string; operation: DocumentOperation },
): OperationView {
  const { path, method, operation } = call;
  const parameters = operation.parameters ?? [];
  const places = [...new Set(parameters.map((parameter) => parameter.in))];
  const body = requestBodyOf(operation);
  return {
    id: operation.operationId,
    method: method.toUpperCase(),
    path,
    summary: operation.summary,
    description: operation.description,
    tag: operation.tags[0],
    security: operation.security.map((requirement) => Object.keys(requirement)[0] ?? "none"),
    parameters: places.map((place) => ({
      in: place,
      fields: parameters
        .filter((parameter) => parameter.in === place)
        .map((parameter) => ({
          ...fieldView(parameter.name, parameter.schema, parameter.required),
          deprecated: parameter.deprecated === true,
          description: parameter.description ?? "",
        })),
    })),
    ...(body
      ? {
          body: {
            required: operation.requestBody!.required,
            type: [{ code: body.mediaType }, words.separator, ...typeInWords(body.schema)],
          },
        }
      : {}),
    responses: Object.entries(operation.responses).map(([status, response]) => ({
      status,
      description: response.description,
      body: answerTypeInWords(answerBodyOf(response)),
      headers: Object.keys(response.headers ?? {}),
    })),
    example: {
      request: requestAsHttp(document, exampleRequest(document, call)),
      answer: answerAsHttp(exampleAnswer(document, call)),
    },
  };
}

function shapeView(name: string, schema: JsonSchema): ShapeView {
  const fields = fieldRows(schema);
  const isObject = typesOf(schema).types.includes("object") || schema.properties !== undefined;
  return {
    name,
    description: String(schema.description ?? ""),
    ...(isObject && fields.length > 0 ? {} : { type: typeInWords(schema) }),
    fields,
  };
}

/** An object's fields, and the fields of an object written in place inside it, as `outer.inner`. */
function fieldRows(schema: JsonSchema, prefix = ""): FieldView[] {
  return fieldsOf(schema).flatMap((field) => {
    const name = `${prefix}${field.name}`;
    const nested = field.schema.$ref === undefined ? fieldRows(field.schema, `${name}.`) : [];
    return [fieldView(name, field.schema, field.required), ...nested];
  });
}

function fieldView(name: string, schema: JsonSchema, required: boolean): FieldView {
  return {
    name,
    required,
    deprecated: schema.deprecated === true,
    description: String(schema.description ?? ""),
    type: typeInWords(schema),
    ...(Array.isArray(schema.examples) ? { example: JSON.stringify(schema.examples[0]) } : {}),
  };
}

/** A JSON answer by its type alone; any other (a file) with its media type first, as a request body shows. */
function answerTypeInWords({ mediaType, schema }: { mediaType: string; schema: JsonSchema }) {
  const type = typeInWords(schema);
  return mediaType === "application/json" ? type : [{ code: mediaType }, words.separator, ...type];
}
