/**
 * The document and the server agree, value by value, on every query parameter, path parameter and plain
 * body field of every call: what the document's schema takes, the server's takes, and the other way round.
 * A query's value arrives as text; where the document says integer, the text of digits is read as one, as
 * Prism and the generated clients do.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { z } from "zod";
import { apiOperations } from "~/openapi/api-contract.server";
import { openApiDocument } from "~/openapi/openapi.server";

const ajv = new Ajv2020({ strict: false });
const document = openApiDocument();

const SAMPLES = [
  "",
  " ",
  "x",
  "0",
  "1",
  "07",
  "500",
  "501",
  "-1",
  "1.5",
  "9".repeat(16),
  "ada@example.com",
  " ada@example.com ",
  "ADA@EXAMPLE.COM",
  "ada@",
  "2026-01-15",
  " 2026-01-15 ",
  "2026-02-30",
  "2026-1-5",
  "login.succeeded",
  "login.nothing",
  "A.AAAAAAAAAAAAAAAAAAAAAA",
  "5b0f1c1e-8f0e-4a57-9d3b-1f6d1b1a2c3d",
  "Ada Lovelace",
  "Ada\u200b",
  "Ada\u0007",
  "a\nb",
  "x".repeat(64),
  "x".repeat(65),
  "x".repeat(254),
  "x".repeat(255),
];

type Field = { where: string; documented: Record<string, unknown>; server: z.ZodType };

function fieldsOfOperations(): Field[] {
  const fields: Field[] = [];
  for (const operation of apiOperations) {
    const call = (document.paths as Record<string, Record<string, Record<string, unknown>>>)[operation.path][
      operation.method
    ];
    const parameters = (call.parameters as { name: string; in: string; schema: Record<string, unknown> }[]) ?? [];
    for (const [name, schema] of Object.entries(operation.query?.shape ?? {})) {
      const documented = parameters.find((parameter) => parameter.in === "query" && parameter.name === name)!.schema;
      fields.push({ where: `${operation.operationId} ?${name}`, documented, server: schema as z.ZodType });
    }
    for (const [name, { schema }] of Object.entries(operation.pathParameters ?? {})) {
      const documented = parameters.find((parameter) => parameter.in === "path" && parameter.name === name)!.schema;
      fields.push({ where: `${operation.operationId} {${name}}`, documented, server: schema });
    }
    const body = operation.body ?? operation.upload;
    const shape = body && "shape" in body.schema ? (body.schema as z.ZodObject).shape : {};
    for (const [name, schema] of Object.entries(shape)) {
      const documented = shapeNamed(body!.name).properties?.[name];
      if (documented?.type === "string" && documented.format !== "binary")
        fields.push({
          where: `${operation.operationId} ${body!.name}.${name}`,
          documented,
          server: schema as z.ZodType,
        });
    }
  }
  return fields;
}

function shapeNamed(name: string) {
  return (document.components.schemas as Record<string, { properties?: Record<string, Record<string, unknown>> }>)[
    name
  ];
}

/** The text as the document reads it: digits as an integer where it says integer. */
function asDocumentReads(value: string, schema: Record<string, unknown>) {
  return schema.type === "integer" && /^-?\d+$/.test(value) ? Number(value) : value;
}

/** What no pattern can say, so the document takes and the server refuses: each with its reason. */
const BEYOND_A_PATTERN: Record<string, string[]> = {
  // An opaque cursor is valid only as the server gave it.
  "getInvestors ?cursor": ["A.AAAAAAAAAAAAAAAAAAAAAA"],
  // A day that does not exist has the shape of one.
  "getAuditLog ?from": ["2026-02-30"],
  "getAuditLog ?to": ["2026-02-30"],
  "stateQualification QualificationRequest.statedOn": ["2026-02-30"],
  "recordVerification VerificationRequest.verifiedOn": ["2026-02-30"],
};

test.each(fieldsOfOperations())(
  "$where: what the document takes, the server takes",
  ({ where, documented, server }) => {
    const documentTakes = ajv.compile(documented);
    const looser = SAMPLES.filter(
      (value) => documentTakes(asDocumentReads(value, documented)) && !server.safeParse(value).success,
    );
    expect(looser).toEqual(BEYOND_A_PATTERN[where] ?? []);
  },
);

/** A cursor signed with the server's key: no example written beforehand is one the server would take. */
const SIGNED = new Set(["getInvestors ?cursor"]);

test("each documented example of a parameter or a field is one the server takes, but a signed cursor's", () => {
  const refused = fieldsOfOperations()
    .filter(({ where }) => !SIGNED.has(where))
    .flatMap(({ where, documented, server }) =>
      ((documented.examples as unknown[] | undefined) ?? [])
        .filter((example) => !server.safeParse(String(example)).success)
        .map((example) => `${where}: ${JSON.stringify(example)}`),
    );
  expect(refused).toEqual([]);
});
