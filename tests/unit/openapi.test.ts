/**
 * The OpenAPI document as generated from the schemas: a valid OpenAPI 3.1 document, one that names every
 * /api route file, and one whose contract check refuses an answer of the wrong shape.
 */
import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { openApiDocument } from "~/http/openapi.server";
import { contractChecker, type Answer, type OpenApi } from "../support/api-contract";

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
