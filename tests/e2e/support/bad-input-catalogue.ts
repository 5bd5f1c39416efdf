import type { RawRequest } from "./raw-http";

/**
 * The catalogue of bad input (docs/requirements.md, "Security and reliability"), as requests: for one route
 * and a valid request to it, every variant that must be refused. Each variant
 * differs from the valid request by one defect, so a refusal proves that
 * this defect, and nothing else, was caught.
 */

/** How a route may refuse: a 4xx with a message; for pages also a redirect to the login page or one carrying an error notice; a bot gets a decoy success. */
export type Refusal = "4xx" | "to-login" | "error-notice" | "decoy";

export type BadCase = { label: string; request: RawRequest; refusals: Refusal[] };

export type FieldKind =
  | "email"
  | "new-password"
  | "login-password"
  | "confirm-password"
  | "token"
  | "name"
  | "address"
  | "message"
  | "address-line"
  | "flag"
  | "id"
  | "choice"
  | "count"
  | "offset"
  | "cursor"
  | "code"
  | "passkey-answer";

export type Credentials =
  | { kind: "none" }
  | { kind: "cookie"; cookie: string }
  | { kind: "bearer"; token: string }
  | { kind: "both"; cookie: string; token: string };

export type RouteUnderTest = {
  name: string;
  method: "GET" | "POST";
  path: string;
  /** Form and JSON routes take a body; GET routes take their input in the path or query. */
  body: "form" | "json" | "none";
  /** The fields of a valid request, and what kind of value each holds (an optional one may be left out). */
  fields: Record<string, { kind: FieldKind; value: unknown; optional?: boolean }>;
  /** The path's own segments (`:name` in `path`): bad values for them are tried like a field's. */
  params?: Record<string, { kind: FieldKind; value: string }>;
  /** Fields the page's form always carries (the honeypot), sent with every variant. */
  hiddenFields?: Record<string, string>;
  /** What a valid caller sends, and who else to try (each with a valid request). */
  credentials: Credentials;
  wrongCredentials?: { label: string; credentials: Credentials; refusals?: Refusal[] }[];
  /** Extra bad values for one field or path segment (a wrong-purpose token, an administrator's id). */
  extraValues?: Record<string, { label: string; value: unknown }[]>;
  /** The body limit server.js applies to this path. */
  bodyLimit: number;
  /** How this route refuses bad fields (default a 4xx). */
  fieldRefusals?: Refusal[];
  /** A request without fields is a valid one (delete, refresh, logout): no empty-body variants. */
  acceptsEmptyForm?: boolean;
  /** The route never reads its body (logging out): only who asks, from where, and the body's size matter. */
  bodyIgnored?: boolean;
};

export const SQL = "' OR 1=1; DROP TABLE users; --";
/**
 * Control characters no text may hold (NUL, which PostgreSQL cannot store, and ESC for the rest of C0),
 * each put inside a valid value: refused at the edge whatever the field (server.js for a path or query,
 * the form and JSON readers for a body), with the same answer on either engine.
 */
const CONTROL_CHARACTERS = [
  { label: "a NUL inside", character: "\u0000" },
  { label: "an ESC inside", character: "\u001b" },
];
const withInside = (value: string, character: string) =>
  `${value.slice(0, Math.ceil(value.length / 2))}${character}${value.slice(Math.ceil(value.length / 2))}`;
export const SCRIPT = "<script>alert(1)</script>";
const FOREIGN_ORIGIN = "https://evil.example";

/** Values no field of its kind may take. */
function badValuesFor(kind: FieldKind): { label: string; value: unknown }[] {
  const blank = [
    { label: "empty", value: "" },
    { label: "blank", value: "   " },
  ];
  switch (kind) {
    case "email":
      return [
        ...blank,
        { label: "not an address", value: "not-an-address" },
        { label: "SQL", value: SQL },
        { label: "a script", value: `${SCRIPT}@example.com` },
        { label: "a NUL byte", value: "nul\u0000byte@example.com" },
        { label: "a header injection", value: "a@example.com\r\nBcc: victim@example.com" },
        {
          label: "255 characters",
          value: `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(59)}.com`,
        },
        { label: "two addresses", value: "a@example.com,b@example.com" },
      ];
    case "new-password":
      return [
        { label: "empty", value: "" },
        { label: "7 characters", value: "Ab3$xyz" },
        { label: "129 characters", value: "p".repeat(129) },
        { label: "a control character", value: "bell\u0007-passphrase" },
        { label: "a common password", value: "password" },
      ];
    case "code":
      return [
        ...blank,
        { label: "5 digits", value: "12345" },
        { label: "7 digits", value: "1234567" },
        { label: "letters", value: "abcdef" },
        { label: "21 characters", value: "1".repeat(21) },
        { label: "SQL", value: SQL },
        { label: "a script", value: SCRIPT },
        { label: "a NUL byte", value: "123\u0000456" },
      ];
    case "login-password":
      return [
        { label: "empty", value: "" },
        { label: "129 characters", value: "p".repeat(129) },
      ];
    case "confirm-password":
      return [{ label: "different", value: "A-different-passphrase-77" }];
    case "token":
      return [
        ...blank,
        { label: "garbage", value: "garbage" },
        { label: "SQL", value: SQL },
        { label: "a script", value: SCRIPT },
        { label: "5,000 characters", value: "A".repeat(5000) },
        { label: "well-formed but unknown", value: "B".repeat(43) },
      ];
    case "name":
      return [
        ...blank,
        { label: "a NUL byte", value: "Ada\u0000" },
        { label: "a header injection", value: "Ada\r\nBcc: victim@example.com" },
        { label: "over-long", value: "N".repeat(201) },
      ];
    case "address":
      return [
        ...blank,
        { label: "a NUL byte", value: "1 Main\u0000 Street" },
        { label: "over-long", value: "A".repeat(603) },
      ];
    case "message":
      return [...blank, { label: "5,001 characters", value: "m".repeat(5001) }];
    case "address-line":
      return [
        { label: "a control character", value: "1 Main\u0007 Street" },
        { label: "over-long", value: "A".repeat(201) },
      ];
    case "flag":
      return [
        { label: "the string 'true'", value: "true" },
        { label: "1", value: 1 },
        { label: "'yes'", value: "yes" },
      ];
    case "id":
      return [
        ...blank,
        { label: "garbage", value: "garbage" },
        { label: "SQL", value: SQL },
        { label: "an unknown id", value: "00000000-0000-4000-8000-000000000000" },
      ];
    case "count":
      return [
        { label: "empty", value: "" },
        { label: "negative", value: "-1" },
        { label: "zero", value: "0" },
        { label: "over the maximum", value: "501" },
        { label: "not a number", value: "abc" },
        { label: "in exponent notation", value: "1e3" },
        { label: "SQL", value: "1; DROP TABLE users; --" },
        { label: "20 digits", value: "9".repeat(20) },
      ];
    case "offset":
      return badValuesFor("count").filter((bad) => bad.label !== "zero" && bad.label !== "over the maximum");
    case "cursor":
      return [
        { label: "empty", value: "" },
        { label: "garbage", value: "not a cursor" },
        { label: "SQL", value: SQL },
        { label: "forged", value: Buffer.from("1.x'; DROP TABLE users; --").toString("base64url") },
        { label: "signed by no one", value: `${Buffer.from("1.x").toString("base64url")}.${"A".repeat(22)}` },
        { label: "201 characters", value: "A".repeat(201) },
      ];
    case "choice":
      return [
        { label: "empty", value: "" },
        { label: "unknown", value: "maybe" },
        { label: "SQL", value: SQL },
      ];
    case "passkey-answer":
      return [
        { label: "empty", value: {} },
        { label: "a string", value: "not an answer" },
        { label: "a type other than public-key", value: { ...SOME_PASSKEY_ANSWER, type: "password" } },
        { label: "no id", value: { ...SOME_PASSKEY_ANSWER, id: undefined } },
        { label: "an id that is not base64url", value: { ...SOME_PASSKEY_ANSWER, id: SQL } },
        { label: "an id of 8,193 characters", value: { ...SOME_PASSKEY_ANSWER, id: "A".repeat(8193) } },
        {
          label: "a NUL in the id",
          value: { ...SOME_PASSKEY_ANSWER, id: withInside(SOME_PASSKEY_ANSWER.id, "\u0000") },
        },
        { label: "no inner response", value: { ...SOME_PASSKEY_ANSWER, response: undefined } },
        {
          label: "clientDataJSON that is not base64url",
          value: { ...SOME_PASSKEY_ANSWER, response: { ...SOME_PASSKEY_ANSWER.response, clientDataJSON: SCRIPT } },
        },
      ];
  }
}

/**
 * A passkey's answer as @simplewebauthn/browser sends it, well-formed in every part but signed by no
 * authenticator: the base that each bad value of a `passkey-answer` field differs from.
 */
export const SOME_PASSKEY_ANSWER = {
  id: "c29tZS1jcmVkZW50aWFs",
  rawId: "c29tZS1jcmVkZW50aWFs",
  type: "public-key",
  clientExtensionResults: {},
  response: {
    clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0",
    authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
    signature: "MEUCIQDsb21lLXNpZ25hdHVyZQ",
    attestationObject: "o2NmbXRkbm9uZQ",
  },
};

/** Values of the wrong JSON type; a flag's `true` is its right type, so it gets a string instead. */
function wrongTypes(kind: FieldKind, valid: unknown): { label: string; value: unknown }[] {
  return [
    { label: "null", value: null },
    kind === "flag" ? { label: "a string", value: "false" } : { label: "a number", value: 12345678 },
    kind === "flag" ? { label: "a number", value: 0 } : { label: "a boolean", value: true },
    { label: "an array", value: [valid] },
    { label: "an object", value: { value: valid } },
  ];
}

function headersFor(credentials: Credentials, extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = { ...extra };
  if (credentials.kind === "cookie" || credentials.kind === "both") headers.Cookie = credentials.cookie;
  if (credentials.kind === "bearer" || credentials.kind === "both")
    headers.Authorization = `Bearer ${credentials.token}`;
  return headers;
}

function formBody(fields: Record<string, unknown>, hidden: Record<string, string> = {}) {
  const params = new URLSearchParams(hidden);
  for (const [name, value] of Object.entries(fields)) params.append(name, String(value));
  return params.toString();
}

function multipart(fields: Record<string, unknown>, fileField?: string) {
  const boundary = "----sweep-boundary-7f3a";
  const parts = Object.entries(fields).map(([name, value]) =>
    name === fileField
      ? `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="x.txt"\r\nContent-Type: text/plain\r\n\r\n${String(
          value,
        )}\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`,
  );
  return { body: `${parts.join("")}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Every bad variant of one route's valid request. */
export function badCasesFor(route: RouteUnderTest): BadCase[] {
  const cases: BadCase[] = [];
  const validFields = Object.fromEntries(Object.entries(route.fields).map(([name, field]) => [name, field.value]));
  const fieldRefusals = route.fieldRefusals ?? ["4xx"];
  const add = (label: string, request: RawRequest, refusals: Refusal[] = ["4xx"]) =>
    cases.push({ label, request, refusals });

  const validParams = Object.fromEntries(
    Object.entries(route.params ?? {}).map(([name, param]) => [name, param.value]),
  );
  const path = pathFor(route, validParams, validFields);

  /** The route's request with these fields (and path segments), as the route takes them. */
  const withFields = (
    fields: Record<string, unknown>,
    credentials = route.credentials,
    extraHeaders = {},
    params = validParams,
  ): RawRequest => {
    const fieldsPath = pathFor(route, params, fields);
    if (route.body === "none")
      return { method: route.method, path: fieldsPath, headers: headersFor(credentials, extraHeaders) };
    const json = route.body === "json";
    return {
      method: route.method,
      path: fieldsPath,
      headers: headersFor(credentials, {
        "Content-Type": json ? "application/json" : "application/x-www-form-urlencoded",
        ...extraHeaders,
      }),
      body: json ? JSON.stringify(fields) : formBody(fields, route.hiddenFields),
    };
  };
  const withBody = (
    contentType: string | null,
    body: string | Buffer,
    credentials = route.credentials,
  ): RawRequest => ({
    method: route.method,
    path,
    headers: headersFor(credentials, contentType ? { "Content-Type": contentType } : {}),
    body,
  });

  // Who is asking: no credentials, broken ones, someone without the right.
  for (const wrong of route.wrongCredentials ?? []) {
    add(`credentials: ${wrong.label}`, withFields(validFields, wrong.credentials), wrong.refusals);
  }

  if (route.method === "POST") {
    // Cross-origin: a request valid in every other way, from a page of another site.
    add("a foreign Origin", withFields(validFields, route.credentials, { Origin: FOREIGN_ORIGIN }));
    add("Origin: null", withFields(validFields, route.credentials, { Origin: "null" }));
    add("Sec-Fetch-Site: cross-site", withFields(validFields, route.credentials, { "Sec-Fetch-Site": "cross-site" }));

    // The body as a whole.
    const contentType = route.body === "json" ? "application/json" : "application/x-www-form-urlencoded";
    const oversized =
      route.body === "json"
        ? JSON.stringify({ ...validFields, pad: "x".repeat(route.bodyLimit) })
        : formBody({ ...validFields, pad: "x".repeat(route.bodyLimit) }, route.hiddenFields);
    add(`a body over ${route.bodyLimit} bytes`, withBody(contentType, oversized));
    add("a chunked body without Content-Length", {
      ...withBody(contentType, formBodyOrJson(route, validFields)),
      chunked: true,
    });
    if (route.bodyIgnored) return cases;
    // A route without fields still gets a body, or "the wrong content type" would be an empty, valid request.
    const someFields = Object.keys(validFields).length > 0 ? validFields : { unexpected: "field" };
    add("no content type", withBody(null, formBodyOrJson(route, someFields)));
    add("text/plain", withBody("text/plain", formBodyOrJson(route, someFields)));
    add("application/xml", withBody("application/xml", "<request><email>a@example.com</email></request>"));
    if (!route.acceptsEmptyForm)
      add("an empty body", withBody(contentType, ""), route.body === "form" ? fieldRefusals : ["4xx"]);
    if (route.body === "json") {
      add("a web form instead of JSON", withBody("application/x-www-form-urlencoded", formBody(someFields)));
      add("multipart instead of JSON", withBody(multipart(someFields).contentType, multipart(someFields).body));
      add("JSON with charset latin1", withBody("application/json; charset=latin1", JSON.stringify(validFields)));
      add("malformed JSON", withBody("application/json", '{"email": "a@example.com",'));
      add("single-quoted JSON", withBody("application/json", "{'email': 'a@example.com'}"));
      add("invalid UTF-8", withBody("application/json", Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])));
      for (const [label, body] of [
        ["a null body", "null"],
        ["an array body", JSON.stringify([validFields])],
        ["a string body", '"a@example.com"'],
        ["a number body", "42"],
      ]) {
        add(label, withBody("application/json", body));
      }
      const [first] = Object.keys(validFields);
      if (first) {
        const repeated = JSON.stringify(validFields).replace(
          /^\{/,
          `{"${first}": ${JSON.stringify(validFields[first])},`,
        );
        add(`${first} given twice`, withBody("application/json", repeated));
      }
    } else {
      add("JSON instead of a web form", withBody("application/json", JSON.stringify(validFields)));
      add("a broken multipart body", withBody("multipart/form-data; boundary=xyz", "--xyz\r\nnot a part\r\n"));
      add("multipart without a boundary", withBody("multipart/form-data", formBody(validFields, route.hiddenFields)));
      if (!route.acceptsEmptyForm) {
        add("urlencoded noise", withBody("application/x-www-form-urlencoded", "%%%&&==&%ZZ\u0000"), fieldRefusals);
      }
    }
  }

  // Wrong methods: the API answers 405; a page's action takes any non-GET method, so an empty one is still refused.
  const otherMethods = route.method === "GET" ? ["POST", "PUT", "DELETE"] : ["GET", "PUT", "PATCH", "DELETE"];
  for (const method of otherMethods) {
    if (route.body === "form" && method === "GET") continue;
    add(`method ${method}`, { method, path, headers: headersFor(route.credentials) });
  }

  // One path segment at a time (left out or blank, the path names another route: not this one's input).
  for (const [name, param] of Object.entries(route.params ?? {})) {
    const values = [...badValuesFor(param.kind), ...(route.extraValues?.[name] ?? [])];
    for (const { label, value } of values.filter((bad) => String(bad.value).trim() !== "")) {
      add(
        `${name}: ${label}`,
        withFields(validFields, route.credentials, {}, { ...validParams, [name]: String(value) }),
        fieldRefusals,
      );
    }
    // server.js refuses these before any route runs, so the answer is its 400 whatever the route's own way.
    for (const { label, character } of CONTROL_CHARACTERS) {
      add(
        `${name}: ${label}`,
        withFields(validFields, route.credentials, {}, { ...validParams, [name]: withInside(param.value, character) }),
      );
    }
  }

  // One field at a time.
  for (const [name, field] of Object.entries(route.fields)) {
    if (!field.optional) {
      const without = { ...validFields };
      delete without[name];
      add(`${name} missing`, withFields(without), fieldRefusals);
    }
    const values = [...badValuesFor(field.kind), ...(route.extraValues?.[name] ?? [])];
    if (route.body === "json") values.push(...wrongTypes(field.kind, field.value));
    for (const { label, value } of values) {
      add(`${name}: ${label}`, withFields({ ...validFields, [name]: value }), fieldRefusals);
    }
    if (typeof field.value === "string") {
      for (const { label, character } of CONTROL_CHARACTERS) {
        add(
          `${name}: ${label}`,
          withFields({ ...validFields, [name]: withInside(field.value, character) }),
          // In a query, server.js's 400; in a body, the route's own refusal.
          route.body === "none" ? ["4xx"] : fieldRefusals,
        );
      }
    }
    if (route.body === "form") {
      const request = withFields(validFields);
      add(
        `${name} given twice`,
        { ...request, body: `${request.body as string}&${encodeURIComponent(name)}=other` },
        fieldRefusals,
      );
      const file = multipart({ ...route.hiddenFields, ...validFields }, name);
      add(
        `${name} as a file`,
        { ...request, headers: { ...request.headers, "Content-Type": file.contentType }, body: file.body },
        fieldRefusals,
      );
    }
  }
  // A field whose name holds NUL, beside the valid ones (a request without fields would still be a valid one).
  if (Object.keys(validFields).length > 0) {
    add(
      "a NUL in a field's name",
      withFields({ ...validFields, "na\u0000me": "x" }),
      route.body === "form" ? fieldRefusals : ["4xx"],
    );
  }
  return cases;
}

function formBodyOrJson(route: RouteUnderTest, fields: Record<string, unknown>) {
  return route.body === "json" ? JSON.stringify(fields) : formBody(fields, route.hiddenFields);
}

/** The path with its segments filled in; a GET route's fields go in the query. */
function pathFor(route: RouteUnderTest, params: Record<string, string>, fields: Record<string, unknown>) {
  let path = route.path;
  for (const [name, value] of Object.entries(params)) path = path.replace(`:${name}`, encodeURIComponent(value));
  if (route.body !== "none") return path;
  const query = new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)]));
  return query.size > 0 ? `${path}${path.includes("?") ? "&" : "?"}${query}` : path;
}
