/**
 * A call's example request and answer, made from its schemas in the OpenAPI document (never written by
 * hand), as values the unit test validates against those schemas and as the HTTP text the API page shows.
 */
import { STATUS_CODES } from "node:http";
import { apiExampleValues } from "~/content/api-docs";
import type { JsonSchema } from "./json-schema-subset.server";
import { exampleOf } from "./openapi-example.server";
import type { OpenApiDocument } from "./openapi.server";

export type DocumentParameter = {
  name: string;
  in: "path" | "query";
  required: boolean;
  description?: string;
  deprecated?: boolean;
  schema: JsonSchema;
};
export type DocumentResponse = {
  description: string;
  headers?: Record<string, unknown>;
  content: { "application/json": { schema: JsonSchema } };
};
export type DocumentOperation = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: DocumentParameter[];
  /** JSON, or for an upload `multipart/form-data`: the document gives each body one media type. */
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, DocumentResponse>;
};

export type ExampleRequest = {
  method: string;
  path: string;
  pathParameters: Record<string, unknown>;
  query: Record<string, unknown>;
  /** The first security requirement's scheme, if the call asks for one. */
  credential?: string;
  body?: unknown;
  /** The body's media type, when there is a body. */
  mediaType?: string;
};
export type ExampleAnswer = { status: string; mediaType: string; body: unknown };

type Call = { path: string; method: string; operation: DocumentOperation };

const shapesOf = (document: OpenApiDocument) => document.components.schemas;

const MULTIPART = "multipart/form-data";

const JSON_MEDIA_TYPE = "application/json";

/** An answer's body: its one media type (JSON, or a file such as the signed NDA's PDF) and schema. */
export function answerBodyOf(response: DocumentOperation["responses"][string]) {
  const [[mediaType, { schema }]] = Object.entries(response.content);
  return { mediaType, schema };
}

/** The call's request body: its one media type and schema. */
export function requestBodyOf(operation: DocumentOperation) {
  const [entry] = Object.entries(operation.requestBody?.content ?? {});
  return entry && { mediaType: entry[0], schema: entry[1].schema };
}

export function exampleRequest(document: OpenApiDocument, { path, method, operation }: Call): ExampleRequest {
  const shapes = shapesOf(document);
  const parameters = (operation.parameters ?? []).filter(
    // A deprecated parameter that may be left out is: an example shows the way to call now.
    (parameter) => parameter.required || parameter.deprecated !== true,
  );
  const valuesIn = (where: DocumentParameter["in"]) =>
    Object.fromEntries(
      parameters
        .filter((parameter) => parameter.in === where)
        .map((parameter) => [parameter.name, exampleOf(parameter.schema, { shapes, name: parameter.name })]),
    );
  const credential = Object.keys(operation.security[0] ?? {})[0];
  const body = requestBodyOf(operation);
  return {
    method: method.toUpperCase(),
    path,
    pathParameters: valuesIn("path"),
    query: valuesIn("query"),
    ...(credential ? { credential } : {}),
    ...(body ? { body: exampleOf(body.schema, { shapes }), mediaType: body.mediaType } : {}),
  };
}

/** The call's first success, as a client most wants to see it; a call with none shows its first answer. */
export function exampleAnswer(document: OpenApiDocument, { operation }: Call): ExampleAnswer {
  return exampleAnswerOf(document, operation, shownStatus(operation));
}

export function exampleAnswerOf(document: OpenApiDocument, operation: DocumentOperation, status: string) {
  const { mediaType, schema } = answerBodyOf(operation.responses[status]);
  return { status, mediaType, body: exampleOf(schema, { shapes: shapesOf(document) }) };
}

function shownStatus(operation: DocumentOperation) {
  const statuses = Object.keys(operation.responses);
  return statuses.find((status) => status.startsWith("2")) ?? statuses[0];
}

export function requestAsHttp(document: OpenApiDocument, request: ExampleRequest): string {
  const path = request.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    pathSegment(String(request.pathParameters[name])),
  );
  const query = new URLSearchParams(
    Object.entries(request.query).map(([name, value]) => [name, String(value)]),
  ).toString();
  const lines = [`${request.method} ${path}${query ? `?${query}` : ""}`];
  if (request.credential) lines.push(credentialHeader(document, request.credential));
  if (request.body === undefined) return lines.join("\n");
  if (request.mediaType === MULTIPART)
    return [...lines, ...multipartLines(request.body as Record<string, unknown>)].join("\n");
  return [...lines, "Content-Type: application/json", "", JSON.stringify(request.body, null, 2)].join("\n");
}

/** An upload's parts, as a client sends them: a list as one part a value, a file with its name. */
function multipartLines(body: Record<string, unknown>) {
  const boundary = apiExampleValues.boundary;
  const lines = [`Content-Type: ${MULTIPART}; boundary=${boundary}`, ""];
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      lines.push(`--${boundary}`);
      if (item === apiExampleValues.file) {
        lines.push(`Content-Disposition: form-data; name="${name}"; filename="${name}"`, "", item);
      } else {
        lines.push(`Content-Disposition: form-data; name="${name}"`, "", String(item));
      }
    }
  }
  return [...lines, `--${boundary}--`];
}

export function answerAsHttp(answer: ExampleAnswer): string {
  return [
    `${answer.status} ${STATUS_CODES[answer.status] ?? ""}`.trim(),
    `Content-Type: ${answer.mediaType}`,
    "",
    answer.mediaType === JSON_MEDIA_TYPE ? JSON.stringify(answer.body, null, 2) : String(answer.body),
  ].join("\n");
}

/** A path segment as a client writes it: escaped, but for the signs a segment may hold as they are (`@`, `:`). */
function pathSegment(value: string) {
  return encodeURIComponent(value).replace(/%(40|3A)/gi, (escaped) => decodeURIComponent(escaped));
}

function credentialHeader(document: OpenApiDocument, name: string) {
  const scheme = document.components.securitySchemes[name] as {
    type: string;
    scheme?: string;
    in?: string;
    name?: string;
  };
  const token = apiExampleValues.credential;
  if (scheme.type === "http" && scheme.scheme === "bearer") return `Authorization: Bearer ${token}`;
  if (scheme.type === "apiKey" && scheme.in === "cookie") return `Cookie: ${scheme.name}=${token}`;
  if (scheme.type === "apiKey" && scheme.in === "header") return `${scheme.name}: ${token}`;
  throw new Error(`The API page cannot show the security scheme ${name} in an example`);
}
