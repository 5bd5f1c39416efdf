/**
 * The API page's examples and types in words, made from the OpenAPI document's schemas: every call's
 * example request and every answer's example validate against their own schemas (ajv, as the contract
 * test validates the server), the same document always gives the same examples, and each kind of schema
 * the document uses is said in words. A schema the page cannot read throws rather than being shown wrong.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "~/openapi/json-schema-subset.server";
import {
  exampleAnswerOf,
  exampleRequest,
  requestAsHttp,
  type DocumentOperation,
} from "~/openapi/openapi-call-example.server";
import { exampleOf } from "~/openapi/openapi-example.server";
import { openApiView } from "~/openapi/openapi-view.server";
import { typeInWords, type TypeWords } from "~/openapi/openapi-words.server";
import { openApiDocument } from "~/openapi/openapi.server";
import { exampleMatching } from "~/openapi/pattern-example.server";

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

const document = openApiDocument();
const DOCUMENT_ID = "https://api-docs.test/openapi.json";
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, DOCUMENT_ID);

const pointer = (...parts: (string | number)[]) =>
  parts.map((part) => String(part).replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** What is wrong with `value` as an instance of the document's schema at `parts`; nothing when it is valid. */
function problemsOf(value: unknown, ...parts: (string | number)[]): string[] {
  const validate = ajv.getSchema(`${DOCUMENT_ID}#/${pointer(...parts)}`);
  if (!validate) return [`no schema at ${pointer(...parts)}`];
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${pointer(...parts)} ${error.instancePath} ${error.message ?? ""}`);
}

const calls = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({
    path,
    method,
    operation: operation as DocumentOperation,
  })),
);
const shapes = document.components.schemas;
const JSON_BODY = "application/json";

test("every call's example request validates against the call's own schemas", () => {
  const problems: string[] = [];
  for (const call of calls) {
    const { path, method, operation } = call;
    const request = exampleRequest(document, call);
    (operation.parameters ?? []).forEach((parameter, index) => {
      const values = parameter.in === "path" ? request.pathParameters : request.query;
      if (!(parameter.name in values)) {
        if (parameter.required) problems.push(`${operation.operationId}: no ${parameter.name}`);
        return;
      }
      problems.push(...problemsOf(values[parameter.name], "paths", path, method, "parameters", index, "schema"));
    });
    if (operation.requestBody) {
      expect(request.body, operation.operationId).toBeDefined();
      const mediaType = request.mediaType!;
      problems.push(...problemsOf(request.body, "paths", path, method, "requestBody", "content", mediaType, "schema"));
    }
  }
  expect(problems).toEqual([]);
  // The check does refuse: a register without its password, a page of no number.
  expect(
    problemsOf(
      { email: "investor@example.com" },
      "paths",
      "/api/auth/register",
      "post",
      "requestBody",
      "content",
      JSON_BODY,
      "schema",
    ),
  ).not.toEqual([]);
  expect(problemsOf("ten", "paths", "/api/user/get_investors", "get", "parameters", 0, "schema")).not.toEqual([]);
});

test("every answer of every call has an example that validates against the answer's schema", () => {
  const problems: string[] = [];
  for (const { path, method, operation } of calls) {
    for (const status of Object.keys(operation.responses)) {
      const answer = exampleAnswerOf(document, operation, status);
      problems.push(
        ...problemsOf(answer.body, "paths", path, method, "responses", status, "content", answer.mediaType, "schema"),
      );
    }
  }
  expect(problems).toEqual([]);
});

test("every shape's example validates against the shape", () => {
  const problems = Object.entries(shapes).flatMap(([name, schema]) =>
    problemsOf(exampleOf(schema, { shapes }), "components", "schemas", name),
  );
  expect(problems).toEqual([]);
});

test("the page shows each call's example request and answer, the same every time", () => {
  const view = openApiView();
  expect(view.operations.map((operation) => operation.id)).toEqual(calls.map((call) => call.operation.operationId));
  for (const operation of view.operations) {
    expect(operation.example.request.split("\n")[0]).toMatch(new RegExp(`^${operation.method} /api/`));
    expect(operation.example.answer).toMatch(/^2\d\d [A-Z]/);
  }
  const login = view.operations.find((operation) => operation.id === "login")!;
  expect(login.example.request).toContain('"email": "investor@example.com"');
  expect(login.example.answer).toContain('"createdAt": "2026-01-15T09:30:00.000Z"');

  // Made again from a fresh copy of the document: the same examples, byte for byte.
  const copy = structuredClone(document);
  for (const call of calls) {
    const again = { ...call, operation: copy.paths[call.path][call.method] as DocumentOperation };
    expect(requestAsHttp(copy, exampleRequest(copy, again))).toBe(
      requestAsHttp(document, exampleRequest(document, call)),
    );
  }
});

test("an example request carries the path, the query and the call's credential", () => {
  const view = openApiView();
  const request = (id: string) => view.operations.find((operation) => operation.id === id)!.example.request;
  expect(request("forgotPassword").split("\n")).toEqual(["GET /api/auth/forgot-password/investor@example.com"]);
  expect(request("getInvestors").split("\n")[0]).toMatch(/^GET \/api\/user\/get_investors\?limit=1&cursor=/);
  // A deprecated parameter is left out of the example: it shows the way to call now.
  expect(request("getInvestors")).not.toContain("offset");
  expect(request("getInvestors")).toContain("Authorization: Bearer ");
  expect(request("refreshToken")).toContain("Cookie: __refresh=");
  // An upload shows its parts, the file's with a file name.
  expect(request("uploadMaterial")).toContain("Content-Type: multipart/form-data; boundary=part");
  expect(request("uploadMaterial")).toContain('Content-Disposition: form-data; name="file"; filename="file"');
});

describe("examples from a schema", () => {
  const example = (schema: JsonSchema, name?: string) => exampleOf(schema, { shapes: {}, name });

  test("the schema's own example or default comes first, then const and enum", () => {
    expect(example({ type: "string", examples: ["given"], default: "fallback" })).toBe("given");
    expect(example({ type: "integer", default: 20 })).toBe(20);
    expect(example({ type: "boolean", const: false })).toBe(false);
    expect(example({ type: "string", enum: ["yes", "no"] })).toBe("yes");
  });

  test("a text says its field's name, fitted to its lengths, or meets its format or its pattern", () => {
    expect(example({ type: "string" }, "address")).toBe("address");
    expect(example({ type: "string", minLength: 8 }, "code")).toBe("codecode");
    expect(example({ type: "string", maxLength: 3 }, "address")).toBe("add");
    expect(example({ type: "string" })).toBe("text");
    expect(example({ type: "string", format: "email" })).toBe("investor@example.com");
    expect(example({ type: "string", format: "uuid" })).toMatch(/^[0-9a-f-]{36}$/);
    expect(example({ type: "string", format: "date-time" })).toBe("2026-01-15T09:30:00.000Z");
    expect(example({ type: "string", pattern: "^\\d{2,4}$" }, "limit")).toBe("11");
    expect(() => example({ type: "string", format: "hostname" })).toThrow(/cannot make an example/);
  });

  test("numbers take 1 or the bound nearest to it", () => {
    expect(example({ type: "integer" })).toBe(1);
    expect(example({ type: "integer", minimum: 5, maximum: 500 })).toBe(5);
    expect(example({ type: "integer", maximum: -3 })).toBe(-3);
    expect(example({ type: "integer", exclusiveMinimum: 1 })).toBe(2);
  });

  test("objects, lists, records, alternatives and references", () => {
    const shapes = { Item: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } };
    expect(
      exampleOf(
        {
          type: "object",
          properties: {
            items: { type: "array", items: { $ref: "#/components/schemas/Item" }, minItems: 2 },
            old: { type: "string", deprecated: true },
            either: { anyOf: [{ type: "null" }, { type: "integer" }] },
            maybe: { type: ["string", "null"] },
          },
          required: ["items"],
        },
        { shapes },
      ),
    ).toEqual({ items: [{ id: "id" }, { id: "id" }], either: 1, maybe: "maybe" });
    expect(example({ type: "object", additionalProperties: { type: "array", items: { type: "string" } } })).toEqual({
      field: ["text"],
    });
    expect(example({})).toBeNull();
  });

  test("a keyword the page does not know, or a shape that contains itself, throws", () => {
    expect(() => example({ type: "number", multipleOf: 5 })).toThrow(/does not know the keyword\(s\) multipleOf/);
    const shapes = { Node: { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } } };
    expect(() => exampleOf({ $ref: "#/components/schemas/Node" }, { shapes })).toThrow(/contains itself/);
  });
});

describe("the shortest text a pattern accepts", () => {
  test("literals, escapes, classes, groups, alternation and quantifiers", () => {
    expect(exampleMatching("^\\d{1,16}$")).toBe("1");
    expect(exampleMatching("^[A-Za-z0-9_-]{1,200}\\.[A-Za-z0-9_-]{22}$")).toBe(`A.${"A".repeat(22)}`);
    expect(exampleMatching("^(?:ab|cd)+x?y*$")).toBe("ab");
    expect(exampleMatching("^[+-]?\\w{3}\\s\\d$")).toBe("aaa 1");
    const email =
      "^(?:[A-Za-z0-9_'+\\-]+\\.)*[A-Za-z0-9_'+\\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$";
    expect(exampleMatching(email)).toBe("A@A.AA");
  });

  test("what it cannot read throws", () => {
    expect(() => exampleMatching("^[^a]$")).toThrow(/cannot make an example/);
    expect(() => exampleMatching("^(?=a)a$")).toThrow(/cannot make an example/);
    expect(() => exampleMatching("^(a)\\1$")).toThrow(/cannot make an example/);
  });
});

describe("types in words", () => {
  const said = (words: TypeWords) =>
    words.map((part) => (typeof part === "string" ? part : "shape" in part ? part.shape : part.code)).join("");
  const inWords = (schema: JsonSchema) => said(typeInWords(schema));

  test("the document's own schemas", () => {
    const register = shapes.RegisterRequest as { properties: Record<string, JsonSchema> };
    expect(inWords(register.properties.email)).toBe("string, e-mail, at most 254 characters");
    expect(inWords(register.properties.password)).toBe(
      "string, 8 to 128 characters matching ^[^\\u0000-\\u001f\\u007f]*$",
    );
    expect(inWords((shapes.InvestorList as { properties: Record<string, JsonSchema> }).properties.users)).toBe(
      "list of PublicUser",
    );
    expect(inWords(shapes.LoginRefusal)).toBe("one of: SecondFactorRequired, Error");
    expect(typeInWords({ type: "array", items: { $ref: "#/components/schemas/PublicUser" } })).toEqual([
      "list of ",
      { shape: "PublicUser" },
    ]);
  });

  test("every kind of the subset", () => {
    expect(inWords({ type: "integer", minimum: 1, maximum: 500 })).toBe("integer from 1 to 500");
    expect(inWords({ type: "integer", minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER })).toBe(
      "integer",
    );
    expect(inWords({ type: "integer", exclusiveMinimum: 0 })).toBe("integer, at least 1");
    expect(inWords({ type: "string", enum: ["yes", "no"] })).toBe("one of: yes, no");
    expect(inWords({ type: "boolean", const: true })).toBe("always true");
    expect(inWords({ type: "string", format: "uuid", minLength: 36, maxLength: 36 })).toBe(
      "string, UUID, exactly 36 characters",
    );
    expect(inWords({ type: "string", pattern: "^\\d+$" })).toBe("string matching ^\\d+$");
    expect(inWords({ type: ["string", "null"], format: "date-time" })).toBe(
      "string, date and time (ISO 8601), or null",
    );
    expect(inWords({ anyOf: [{ $ref: "#/components/schemas/PublicUser" }, { type: "null" }] })).toBe(
      "PublicUser, or null",
    );
    expect(inWords({ type: "array", items: { type: "string" }, minItems: 1 })).toBe("list of string, at least 1 item");
    expect(inWords({ type: "object", additionalProperties: { type: "integer" } })).toBe("object, each value: integer");
    expect(inWords({})).toBe("any value");
    expect(() => inWords({ type: "string", format: "ipv4" })).toThrow(/cannot say the format ipv4/);
  });
});
