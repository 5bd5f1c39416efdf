/** The words of /api/docs, the JSON API's reference page; the calls' own words come from the OpenAPI document. */

export const apiDocsPage = {
  title: "API reference",
  description: "The JSON API of the investor portal: its calls, their inputs and every answer they give.",
  heading: "API reference",
  documentLead: "Programs read the same calls from",
  documentLink: "the OpenAPI 3.1 document",
  documentTail: ", from which a client can be generated.",
  contents: "Contents",
  authentication: "Authentication",
  shapes: "Shapes",
  shapesLead: "The bodies the calls read and write. A field is present unless it is marked optional.",
  parameters: { path: "Path parameters", query: "Query parameters" } as Record<string, string>,
  requestBody: "Request body",
  optionalBody: "optional",
  responses: "Responses",
  exampleRequest: "Example request",
  exampleAnswer: "Example answer",
  type: "Type",
  columns: {
    status: "Status",
    answer: "Answer",
  },
  optional: "optional",
  deprecated: "deprecated",
  /** Before a field's example value. */
  example: "Example",
  body: "Body",
  headers: "Headers",
  anyone: "Anyone",
  security: {
    bearerAuth: "An access token",
    refreshCookie: "The refresh cookie",
  } as Record<string, string>,
} as const;

const plural = (count: number, [one, many]: readonly [string, string]) => `${count} ${count === 1 ? one : many}`;

/** A schema's type in words on /api/docs, pieced together by app/openapi/openapi-words.server.ts. */
export const apiTypeWords = {
  string: "string",
  integer: "integer",
  number: "number",
  boolean: "true or false",
  object: "object",
  null: "null",
  anything: "any value",
  formats: {
    email: "e-mail",
    "date-time": "date and time (ISO 8601)",
    uuid: "UUID",
    binary: "a file's bytes",
  } as Record<string, string>,
  listOf: "list of ",
  mapOf: "object, each value: ",
  oneOf: "one of: ",
  always: "always ",
  or: " or ",
  orNull: ", or null",
  separator: ", ",
  matching: " matching ",
  characters: ["character", "characters"] as const,
  items: ["item", "items"] as const,
  /** A length's or a count's bounds: ", 8 to 128 characters", ", at most 254 characters". */
  count: (least: number | undefined, greatest: number | undefined, unit: readonly [string, string]) => {
    if (least !== undefined && greatest !== undefined) {
      return least === greatest ? `, exactly ${plural(least, unit)}` : `, ${least} to ${plural(greatest, unit)}`;
    }
    if (least !== undefined) return `, at least ${plural(least, unit)}`;
    return greatest !== undefined ? `, at most ${plural(greatest, unit)}` : "";
  },
  /** A number's bounds: " from 1 to 500", ", at least 0". */
  range: (least: number | undefined, greatest: number | undefined) => {
    if (least !== undefined && greatest !== undefined) return ` from ${least} to ${greatest}`;
    if (least !== undefined) return `, at least ${least}`;
    return greatest !== undefined ? `, at most ${greatest}` : "";
  },
} as const;

/** The values the examples on /api/docs start from (app/openapi/openapi-example.server.ts). */
export const apiExampleValues = {
  email: "investor@example.com",
  dateTime: "2026-01-15T09:30:00.000Z",
  uuid: "3f2c1a9e-5b7d-4e8f-9a6b-2c4d6e8f0a1b",
  /** A text with no name of its own, such as an item of a list. */
  text: "text",
  /** The name of a field in an object whose fields are not known beforehand. */
  key: "field",
  /** A file part's bytes in an example upload. */
  file: "<the file's bytes>",
  /** The boundary between the parts of an example upload. */
  boundary: "part",
  /** Where a call's example shows the token it is sent with. */
  credential: "<token>",
} as const;
