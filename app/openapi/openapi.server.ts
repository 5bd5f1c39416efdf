/**
 * The OpenAPI 3.1 document of the JSON API, generated from the contract (api-contract.server.ts) with
 * zod's own JSON Schema output (JSON Schema 2020-12, OpenAPI 3.1's dialect). It is built once, on the
 * first request for it, and never written by hand.
 */
import { z } from "zod";
import { firm } from "~/content/firm";
import { REFRESH_COOKIE_NAME } from "~/lib/refresh-cookie";
import { answerShapes, apiOperations, type Answer, type AnswerHeader, type ApiOperation } from "./api-contract.server";
import { addFieldExamples } from "./openapi-field-examples.server";

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = {
  openapi: "3.1.1";
  info: {
    title: string;
    version: string;
    description: string;
    contact: { name: string; email: string };
    /** Its `url` is the site's terms of use, added where the site's address is known (servedOpenApiDocument). */
    license: { name: string; url?: string };
  };
  /** Where the calls go: the site that serves the document (servedOpenApiDocument). */
  servers?: { url: string; description: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: Record<string, Record<string, JsonSchema>>;
  tags: { name: string; description: string }[];
};

/** The document's own version: raised when a call or a shape changes. */
export const API_DOCUMENT_VERSION = "1.3.0";

const SCHEMA_PATH = "#/components/schemas/";
/** The site's legal page: its terms of use, which the API's are. */
const TERMS_OF_USE_PATH = "/disclaimer";

const HEADERS: Record<AnswerHeader, JsonSchema> = {
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    required: true,
    schema: { type: "string", pattern: "^\\d+$" },
  },
  "WWW-Authenticate": {
    description: 'The Bearer scheme: `Bearer realm="api"`, with `error="invalid_token"` for a bad token.',
    required: true,
    schema: { type: "string" },
  },
  "Set-Cookie": {
    description: `The refresh token in the HttpOnly \`${REFRESH_COOKIE_NAME}\` cookie (Path=/api/auth, SameSite=Strict), or its clearing.`,
    required: true,
    schema: { type: "string" },
  },
};

const SECURITY: Record<ApiOperation["auth"], Record<string, string[]>[]> = {
  none: [],
  bearer: [{ bearerAuth: [] }],
  administrator: [{ bearerAuth: [] }],
  "refresh-cookie": [{ refreshCookie: [] }],
  "bearer-or-refresh-cookie": [{ bearerAuth: [] }, { refreshCookie: [] }, {}],
};

let built: OpenApiDocument | undefined;

export function openApiDocument(): OpenApiDocument {
  built ??= buildDocument();
  return built;
}

/** The document as /api/openapi.json serves it: the calls go to the site itself (APP_URL), whose terms of use apply. */
export function servedOpenApiDocument(siteUrl: URL): OpenApiDocument {
  const { openapi, info, ...rest } = openApiDocument();
  return {
    openapi,
    info: { ...info, license: { ...info.license, url: new URL(TERMS_OF_USE_PATH, siteUrl).href } },
    servers: [{ url: siteUrl.origin, description: "This portal." }],
    ...rest,
  };
}

function buildDocument(): OpenApiDocument {
  // Requests are documented as a client sends them (zod's input side), answers as the server writes them.
  const requests = z.registry<{ id: string }>();
  for (const { body, upload } of apiOperations) {
    if (body && !requests.has(body.schema)) requests.add(body.schema, { id: body.name });
    if (upload && !requests.has(upload.schema)) requests.add(upload.schema, { id: upload.name });
  }
  const answers = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(answerShapes)) answers.add(schema, { id });

  const schemas = {
    ...componentsOf(requests, "input"),
    ...componentsOf(answers, "output"),
  };
  const paths: OpenApiDocument["paths"] = {};
  for (const operation of apiOperations) {
    paths[operation.path] ??= {};
    paths[operation.path][operation.method] = operationObject(operation, { requests, answers });
  }
  addFieldExamples({ schemas, paths });
  return {
    openapi: "3.1.1",
    info: {
      title: `${firm.name} API`,
      version: API_DOCUMENT_VERSION,
      description:
        "The JSON API of the investor portal. Every answer is JSON but the NDA's PDF (`GET /api/nda/document`); every refusal is `{ message }`, with `issues` for field errors. Requests with a body send `Content-Type: application/json`, but for the materials' uploads, which send `multipart/form-data`. No text a call sends, in its address, query or body, may hold a control character (U+0000 to U+001F, other than tab, line feed and carriage return): such a call is refused with 400.",
      contact: { name: firm.name, email: firm.mailboxes.info },
      license: { name: `Proprietary: ${firm.name}'s terms of use` },
    },
    tags: [
      { name: "Account", description: "Signing up, verifying, logging in and out, tokens and passwords." },
      { name: "Investors", description: "Names and addresses, the NDA's state, and the administrators' list." },
      { name: "Audit", description: "The audit log, for administrators: every recorded event, in words." },
      {
        name: "Materials",
        description:
          "The materials library: the documents an investor may open; for administrators, uploads, new versions and who read what.",
      },
      {
        name: "NDA",
        description:
          "The NDA signed in the portal: the investor's state, consent, signature and file; for administrators, the countersignature and the record.",
      },
      {
        name: "Questions",
        description:
          "Investors' questions and the firm's answers, private or published; the administrators' queue. 404 while the firm has questions and answers turned off.",
      },
      {
        name: "Qualification",
        description:
          "How an investor says they qualify, and the firm's verifications. The portal records them; it verifies nothing itself. 404 while turned off.",
      },
      {
        name: "Interest",
        description:
          "Non-binding indications of interest: not an offer, a commitment or a subscription. 404 while turned off.",
      },
      {
        name: "Pipeline",
        description: "The raise as a pipeline of stages, with the indicated interest, for administrators.",
      },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "The `accessToken` of a login or a refresh, for 15 minutes.",
        },
        refreshCookie: {
          type: "apiKey",
          in: "cookie",
          name: REFRESH_COOKIE_NAME,
          description: "The HttpOnly refresh cookie set by a login (Path=/api/auth); each one works once.",
        },
      },
    },
  };
}

type Registries = { requests: z.core.$ZodRegistry<{ id: string }>; answers: z.core.$ZodRegistry<{ id: string }> };

function componentsOf(registry: z.core.$ZodRegistry<{ id: string }>, io: "input" | "output") {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    uri: (id) => `${SCHEMA_PATH}${id}`,
    unrepresentable: "any",
    override: keepFieldMeta,
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutIdentity(schema)]));
}

/** One schema in place: a `$ref` when it is a named component, else its JSON Schema. */
function schemaOf(schema: z.ZodType, registry: z.core.$ZodRegistry<{ id: string }>, io: "input" | "output") {
  const id = registry.get(schema)?.id;
  if (id) return { $ref: `${SCHEMA_PATH}${id}` };
  return withoutIdentity(z.toJSONSchema(schema, { io, unrepresentable: "any", override: keepFieldMeta }) as JsonSchema);
}

/**
 * The documents' registries hold the components' ids; a field's description, and its examples where no
 * generated one would do (a value the server takes, not only one of the right shape), stay in zod's global
 * one (`.meta()`).
 */
function keepFieldMeta({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }) {
  const meta = z.globalRegistry.get(zodSchema);
  if (meta?.description) jsonSchema.description = meta.description;
  if (meta?.examples) jsonSchema.examples = meta.examples;
}

function withoutIdentity(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

function operationObject(operation: ApiOperation, { requests, answers }: Registries): JsonSchema {
  const parameters = [
    ...Object.entries(operation.pathParameters ?? {}).map(([name, { schema, description }]) => ({
      name,
      in: "path",
      required: true,
      description,
      schema: schemaOf(schema, requests, "input"),
    })),
    ...Object.entries(operation.query?.shape ?? {}).map(([name, schema]) =>
      queryParameter(name, schemaOf(schema as z.ZodType, requests, "input"), {
        required: !(schema as z.ZodType).safeParse(undefined).success,
      }),
    ),
  ];
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    tags: [operation.tag],
    security: SECURITY[operation.auth],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: operation.body.required,
            content: { "application/json": { schema: schemaOf(operation.body.schema, requests, "input") } },
          },
        }
      : {}),
    ...(operation.upload
      ? {
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: schemaOf(operation.upload.schema, requests, "input"),
                encoding: Object.fromEntries(
                  Object.entries(operation.upload.fileTypes).map(([part, contentType]) => [part, { contentType }]),
                ),
              },
            },
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(operation.answers).map(([status, answer]) => [status, responseObject(answer, answers)]),
    ),
  };
}

/** A query parameter: what the schema says of the parameter itself (its description, deprecation) is said on it. */
function queryParameter(name: string, schema: JsonSchema, { required }: { required: boolean }): JsonSchema {
  const { description, deprecated, ...value } = schema;
  return {
    name,
    in: "query",
    required,
    ...(description === undefined ? {} : { description }),
    ...(deprecated === undefined ? {} : { deprecated }),
    schema: value,
  };
}

function responseObject(answer: Answer, answers: z.core.$ZodRegistry<{ id: string }>): JsonSchema {
  return {
    description: answer.description,
    ...(answer.headers?.length
      ? { headers: Object.fromEntries(answer.headers.map((name) => [name, HEADERS[name]])) }
      : {}),
    content: { [answer.mediaType ?? "application/json"]: { schema: schemaOf(answer.schema, answers, "output") } },
  };
}
