/**
 * Holds API answers to the OpenAPI document: the status must be one the call documents, the body must
 * match that answer's schema (ajv, JSON Schema 2020-12, the document's own dialect) and every header
 * the answer documents as required must be there. It also counts which documented answers were seen.
 */
import type { ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

type Response = {
  description: string;
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, unknown>;
};
type Operation = { operationId: string; responses: Record<string, Response> };
export type OpenApi = { paths: Record<string, Record<string, Operation>>; [key: string]: unknown };

export type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

const DOCUMENT_ID = "https://contract.test/openapi.json";

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

export function contractChecker(document: OpenApi) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
  const seen = new Set<string>();
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));

  /** The documented call a request makes, by its method and path (the query is ignored). */
  function operationOf(method: string, path: string) {
    const pathname = new URL(path, "http://contract.test").pathname;
    const match = templates.find(({ pattern }) => pattern.test(pathname));
    const operation = match && document.paths[match.template][method.toLowerCase()];
    return operation ? { template: match.template, operation } : null;
  }

  /** What is wrong with `answer` as the document's answer to `method path`; nothing when it conforms. */
  function problemsOf(method: string, path: string, answer: Answer): string[] {
    const found = operationOf(method, path);
    if (!found) return [`${method} ${path} is not a documented call`];
    const { template, operation } = found;
    const documented = operation.responses[String(answer.status)];
    const call = `${operation.operationId} (${method} ${template})`;
    if (!documented) return [`${call}: the status ${answer.status} is not documented — ${answer.body.slice(0, 200)}`];
    seen.add(`${operation.operationId} ${answer.status}`);

    const problems: string[] = [];
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      if (header.required && answer.headers[name.toLowerCase()] === undefined)
        problems.push(`${call} ${answer.status}: no ${name} header`);
    }
    if (!documented.content) return problems;
    const contentType = String(answer.headers["content-type"] ?? "");
    if (!contentType.startsWith("application/json")) {
      // A file the document names by its type (the NDA's PDF): its bytes are no JSON schema's to judge.
      const file = Object.keys(documented.content).find((type) => type !== "application/json");
      if (file && contentType.startsWith(file)) return problems;
      return [...problems, `${call} ${answer.status}: Content-Type ${contentType || "(none)"}, not JSON`];
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [...problems, `${call} ${answer.status}: the body is not JSON`];
    }
    const schemaRef = `${DOCUMENT_ID}#/${pointer("paths", template, method.toLowerCase(), "responses", String(answer.status), "content", "application/json", "schema")}`;
    const validate = ajv.getSchema(schemaRef);
    if (!validate) return [...problems, `${call} ${answer.status}: no schema at ${schemaRef}`];
    if (!validate(body)) {
      problems.push(`${call} ${answer.status}: the body does not match — ${describe(validate.errors ?? [])}`);
    }
    return problems;
  }

  /** Every documented (call, status) pair, as "operationId status". */
  function documentedAnswers(): string[] {
    return Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).flatMap((operation) =>
        Object.keys(operation.responses).map((status) => `${operation.operationId} ${status}`),
      ),
    );
  }

  return {
    operationOf,
    problemsOf,
    documentedAnswers,
    /** The documented answers no checked answer was. */
    unseenAnswers: () => documentedAnswers().filter((answer) => !seen.has(answer)),
  };
}

function describe(errors: ErrorObject[]): string {
  return errors.map((error) => `${error.instancePath || "(body)"} ${error.message ?? ""}`.trim()).join("; ");
}
