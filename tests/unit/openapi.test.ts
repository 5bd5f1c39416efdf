/**
 * The OpenAPI document as generated from the schemas: a valid OpenAPI 3.1 document, one that names every
 * /api route file, one that carries the server's own rules, and one whose contract check and Prism's
 * validators refuse an answer of the wrong shape.
 */
import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  ADDRESS_LINE_COUNT,
  ADDRESS_MAX_LENGTH,
  API_INVESTOR_PAGE_MAX,
  NAME_FIELD_MAX_LENGTH,
} from "~/content/constants";
import { investorListQuerySchema } from "~/models/investors/investor-list-api.server";
import { setNameAddressSchema } from "~/models/investors/investor-profile.server";
import { textPattern } from "~/models/investors/name-address-schema.server";
import { openApiDocument, servedOpenApiDocument } from "~/openapi/openapi.server";
import { contractChecker, type Answer, type OpenApi } from "../support/api-contract";
import { prismChecker } from "../support/prism-check";

const document = openApiDocument() as unknown as OpenApi;
const json = { "content-type": "application/json; charset=utf-8" };

const user = {
  id: "5b0f1c1e-8f0e-4a57-9d3b-1f6d1b1a2c3d",
  email: "ada@example.com",
  fullName: "Ada Lovelace",
  address: "1 Main Street",
  isNDASent: false,
  isNDASigned: false,
  role: { name: "investor" },
  createdAt: "2026-11-25T10:00:00.000Z",
};
const loginAnswer = { accessToken: "A".repeat(43), user, expiresIn: 900 };
const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { ...json, ...headers },
  body: JSON.stringify(body),
});

test("the document is valid OpenAPI 3.1", async () => {
  const result = await new Validator().validate(structuredClone(document));
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(document.openapi).toBe("3.1.1");
  // The validator does refuse: the same document without its required `info`.
  const { info: _info, ...withoutInfo } = structuredClone(document);
  expect((await new Validator().validate(withoutInfo)).valid).toBe(false);
});

test("every /api route file is a documented call, and every documented call a route file", () => {
  const routeFiles = fs
    .readdirSync(path.resolve(__dirname, "../../app/routes"))
    .filter((file) => /^api\..+\.ts$/.test(file) && file !== "api.openapi[.json].ts");
  const paths = routeFiles.map(
    (file) =>
      "/" +
      file
        .replace(/\.ts$/, "")
        .split(".")
        .map((segment) => (segment.startsWith("$") ? `{${segment.slice(1)}}` : segment))
        .join("/"),
  );
  expect(paths.sort()).toEqual(Object.keys(document.paths).sort());
});

test("the login's documented answers pass the contract check", () => {
  const checker = contractChecker(document);
  expect(
    checker.problemsOf("POST", "/api/auth/login", answer(200, loginAnswer, { "set-cookie": "__refresh=x" })),
  ).toEqual([]);
  expect(
    checker.problemsOf(
      "POST",
      "/api/auth/login",
      answer(401, { message: "Enter the code.", mfaRequired: true }, { "www-authenticate": 'Bearer realm="api"' }),
    ),
  ).toEqual([]);
  expect(
    checker.problemsOf("POST", "/api/auth/login", answer(429, { message: "Too many." }, { "retry-after": "60" })),
  ).toEqual([]);
  expect(checker.unseenAnswers()).not.toContain("login 200");
  expect(checker.unseenAnswers()).toContain("login 423");
});

test("a deliberately wrong answer fails the contract check: shape, status, header and type", () => {
  const checker = contractChecker(document);
  const login = (wrong: Answer) => checker.problemsOf("POST", "/api/auth/login", wrong).join("\n");
  const { accessToken: _dropped, ...withoutToken } = loginAnswer;

  expect(login(answer(200, withoutToken, { "set-cookie": "__refresh=x" }))).toMatch(
    /login .* 200: the body does not match — .*accessToken/,
  );
  expect(login(answer(200, { ...loginAnswer, passwordHash: "x" }, { "set-cookie": "__refresh=x" }))).toMatch(
    /must NOT have additional properties/,
  );
  expect(login(answer(200, { ...loginAnswer, user: { ...user, isNDASent: 0 } }, { "set-cookie": "x" }))).toMatch(
    /\/user\/isNDASent must be boolean/,
  );
  expect(login(answer(404, { message: "Not found." }))).toMatch(/the status 404 is not documented/);
  expect(login(answer(429, { message: "Too many." }))).toMatch(/no Retry-After header/);
  expect(login({ status: 400, headers: { "content-type": "text/html" }, body: "<p>Bad</p>" })).toMatch(/not JSON/);
  expect(checker.problemsOf("GET", "/api/nothing-here", answer(200, {}))).toEqual([
    "GET /api/nothing-here is not a documented call",
  ]);
});

type FieldSchema = Record<string, unknown>;
const generated = openApiDocument();
const nameAddress = generated.components.schemas.NameAddressRequest as { properties: Record<string, FieldSchema> };
const investorsQuery = (generated.paths["/api/user/get_investors"].get.parameters as { name: string }[]).map(
  (parameter) => parameter as { name: string; schema: FieldSchema; description?: string; deprecated?: boolean },
);

test("the document's NameAddressRequest has the server's lengths, lines and characters", () => {
  expect(nameAddress.properties.full_name).toMatchObject({
    type: "string",
    minLength: 1,
    maxLength: NAME_FIELD_MAX_LENGTH,
    pattern: textPattern({ required: "yes" }).source,
  });
  expect(nameAddress.properties.address).toMatchObject({
    type: "string",
    minLength: 1,
    maxLength: ADDRESS_MAX_LENGTH,
    pattern: textPattern({ required: "yes", lines: ADDRESS_LINE_COUNT }).source,
  });
});

test("the document and the server agree on every name and address: what one takes, the other takes", () => {
  const ajv = new Ajv2020({ strict: false });
  const documentTakes = ajv.compile(nameAddress);
  const body = (full_name: string, address: string) => ({ email: "ada@example.com", full_name, address });
  const names = ["Ada Lovelace", "Ré", "x".repeat(200), "x".repeat(201), "", "   ", "Ada\nLovelace", "Ada\u0007"];
  const moreNames = ["\u202eecalevoL", "Ada\u200b", "Ada\u0085", "Ada\u2028", "Ada\u007f", "\tAda"];
  const addresses = ["1 Main St", "1 Main St\nSpringfield\nIL", "1\n2\n3\n4", "1 Main St\r\nSpringfield", "\n\n"];
  const moreAddresses = [
    `${"x".repeat(200)}\n`.repeat(2) + "x".repeat(200),
    "x".repeat(ADDRESS_MAX_LENGTH + 1),
    " \n x",
  ];
  for (const [full_name, address] of [
    ...[...names, ...moreNames].map((name) => [name, "1 Main St"]),
    ...[...addresses, ...moreAddresses].map((address) => ["Ada", address]),
  ]) {
    const value = body(full_name, address);
    expect(documentTakes(value), JSON.stringify(value)).toBe(setNameAddressSchema.safeParse(value).success);
  }
});

test("get_investors' limit and offset are integers in the server's range, their words and deprecation on the parameters", () => {
  const [limit, cursor, offset] = investorsQuery;
  expect(limit).toMatchObject({ name: "limit", description: expect.stringContaining("from 1 to") });
  expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: API_INVESTOR_PAGE_MAX });
  expect(limit.schema).not.toHaveProperty("description");
  expect(cursor).toMatchObject({ name: "cursor", description: expect.any(String) });
  expect(offset).toMatchObject({ name: "offset", deprecated: true, schema: { type: "integer", minimum: 0 } });
  expect(offset.schema).not.toHaveProperty("deprecated");
  // What the server reads from the query agrees with the document's bounds.
  const takes = (limit: string) => investorListQuerySchema.safeParse({ limit }).success;
  expect([0, 1, API_INVESTOR_PAGE_MAX, API_INVESTOR_PAGE_MAX + 1].map(String).map(takes)).toEqual([
    false,
    true,
    true,
    false,
  ]);
});

test("every call has a description, answers 503, and the served document names its server and terms", () => {
  for (const methods of Object.values(generated.paths)) {
    for (const operation of Object.values(methods)) {
      expect(operation.description, String(operation.operationId)).toEqual(expect.any(String));
      expect(Object.keys(operation.responses as object)).toContain("503");
    }
  }
  expect(generated.info).toMatchObject({
    contact: { email: expect.any(String) },
    license: { name: expect.any(String) },
  });
  const served = servedOpenApiDocument(new URL("https://portal.northbeam.test/anything"));
  expect(served.servers).toEqual([{ url: "https://portal.northbeam.test", description: expect.any(String) }]);
  expect(served.info.license.url).toBe("https://portal.northbeam.test/disclaimer");
});

test("a deliberately wrong answer fails Prism's check, and so does a request the server took that the document refuses", async () => {
  const prism = await prismChecker(servedOpenApiDocument(new URL("https://portal.northbeam.test")));
  const login = {
    method: "POST",
    path: "/api/auth/login",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "ada@example.com", password: "Contract-Valid-Passphrase-58" }),
  };
  const right = answer(200, loginAnswer, { "set-cookie": "__refresh=x" });
  expect(await prism.problemsOf({ request: login, answer: right })).toEqual([]);

  const wrongType = answer(200, { ...loginAnswer, expiresIn: "900" }, { "set-cookie": "__refresh=x" });
  expect((await prism.problemsOf({ request: login, answer: wrongType })).join("\n")).toMatch(/expiresIn/);
  const noCookie = answer(200, loginAnswer);
  expect((await prism.problemsOf({ request: login, answer: noCookie })).join("\n")).toMatch(/set-cookie/i);
  const undocumented = answer(418, { message: "I'm a teapot." });
  expect((await prism.problemsOf({ request: login, answer: undocumented })).join("\n")).toMatch(/status code/);

  const tooLong = {
    method: "GET",
    path: `/api/user/get_investors?limit=${API_INVESTOR_PAGE_MAX + 1}`,
    headers: { Authorization: "Bearer token" },
  };
  const taken = answer(200, { users: [] });
  expect((await prism.problemsOf({ request: tooLong, answer: taken })).join("\n")).toMatch(/yet its request .*limit/);
  // A refusal of it is what the document says: no problem.
  expect(await prism.problemsOf({ request: tooLong, answer: answer(400, { message: "No." }) })).toEqual([]);
});
