/**
 * Stoplight Prism's judgement of one exchange with the API, against the OpenAPI document: its router finds
 * the call, its validators check the request (parameters, security, body) and the answer (status, headers,
 * body). Prism runs in-process as its validating proxy does, with one difference: the answer it forwards is
 * the one the test already had from the server, so the request reached the server exactly as the test wrote
 * it (chunked, malformed, hostile) and nothing is sent twice.
 */
import {
  createInstance,
  getHttpOperationsFromSpec,
  type IHttpConfig,
  type IHttpRequest,
  type IHttpResponse,
} from "@stoplight/prism-http";
import { either, taskEither } from "fp-ts";
import { findRepeatedKey } from "~/http/api.server";

export type Exchange = {
  request: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer };
  answer: { status: number; headers: Record<string, string | string[] | undefined>; body: string };
};

/** What Prism found wrong with an exchange: its request's violations and its answer's. */
export type PrismVerdict = { request: string[]; answer: string[] } | { unread: string };

const CONFIG: IHttpConfig = {
  isProxy: true,
  // Never reached: the answer is the test's own (see `forward` below).
  upstream: new URL("http://upstream.invalid"),
  upstreamProxy: undefined,
  checkSecurity: true,
  validateRequest: true,
  validateResponse: true,
  errors: false,
  mock: { dynamic: false },
};

/** Prism reports through a pino logger; a test wants none of it. */
const silentLogger = {
  child: () => silentLogger,
  ...Object.fromEntries(
    ["trace", "debug", "info", "success", "warn", "error", "fatal"].map((level) => [level, () => {}]),
  ),
};

/**
 * A checker for one document: Prism reads the document once, then judges each exchange. Its `problemsOf`
 * counts as a problem any violation in an answer, and any in a request the server took (answered 2xx): a
 * document stricter than the server. A refused request breaks the document on purpose and is not one.
 */
export async function prismChecker(document: object) {
  const operations = await getHttpOperationsFromSpec(structuredClone(document));
  const counts = { judged: 0, unread: [] as string[] };

  async function verdictOf({ request, answer }: Exchange): Promise<PrismVerdict> {
    const input = requestOf(request);
    if ("unread" in input) return input;
    const prism = createInstance(CONFIG, {
      logger: silentLogger,
      forward: () => () => taskEither.right(answerOf(answer)),
    });
    const result = await prism.request(input, operations)();
    if (either.isLeft(result)) return { unread: result.left.message };
    const { input: requestProblems, output: answerProblems } = result.right.validations;
    return { request: requestProblems.map(said), answer: answerProblems.map(said) };
  }

  async function problemsOf(exchange: Exchange): Promise<string[]> {
    const verdict = await verdictOf(exchange);
    const call = `Prism: ${exchange.request.method} ${exchange.request.path} answered ${exchange.answer.status}`;
    if ("unread" in verdict) {
      counts.unread.push(`${call}: ${verdict.unread}`);
      return [];
    }
    counts.judged += 1;
    const taken = exchange.answer.status >= 200 && exchange.answer.status < 300;
    return [
      ...verdict.answer.map((problem) => `${call}: ${problem}`),
      ...(taken ? verdict.request.map((problem) => `${call}, yet its request breaks the document: ${problem}`) : []),
    ];
  }

  return { verdictOf, problemsOf, counts };
}

function said({ path, message }: { path?: string[]; message: string }) {
  return path?.length ? `${path.join(".")}: ${message}` : message;
}

/** The request as Prism's server would have read it; a JSON body it cannot read as the server does is left unread. */
function requestOf(request: Exchange["request"]): IHttpRequest | { unread: string } {
  const url = new URL(request.path, "http://api.invalid");
  const headers = Object.fromEntries(
    Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const text = request.body === undefined ? "" : Buffer.from(request.body).toString("utf8");
  if (text !== "") headers["content-length"] ??= String(Buffer.byteLength(request.body!));
  let body: unknown = text === "" ? undefined : text;
  if (text !== "" && /^application\/json/i.test(headers["content-type"] ?? "")) {
    // Prism's proxy never forwards malformed JSON, and reads a repeated name as its last value: the server
    // refuses both, which the contract check holds to the document.
    try {
      body = JSON.parse(text);
    } catch {
      return { unread: "malformed JSON" };
    }
    if (findRepeatedKey(text) !== null) return { unread: "a name given twice" };
  }
  // A name given once is a value, as Prism's server reads a query; given again, a list.
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0] : values;
  }
  return {
    method: request.method.toLowerCase() as IHttpRequest["method"],
    url: { path: url.pathname, query },
    headers,
    body,
  };
}

function answerOf(answer: Exchange["answer"]): IHttpResponse {
  const headers = Object.fromEntries(
    Object.entries(answer.headers)
      .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)
      .map(([name, value]) => [name.toLowerCase(), ([] as string[]).concat(value).join(", ")]),
  );
  const isJson = /^application\/json/i.test(headers["content-type"] ?? "");
  let body: unknown = answer.body;
  if (isJson) {
    try {
      body = JSON.parse(answer.body);
    } catch {
      // Left as text: Prism then finds it is not the documented JSON.
    }
  }
  return { statusCode: answer.status, headers, body };
}
