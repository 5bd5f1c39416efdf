/**
 * Calls a resource route module's loader or action with a real Request, as
 * Remix does: GET and HEAD go to the loader, other methods to the action, and
 * a thrown Response is the answer.
 */
type Handler = (args: {
  request: Request;
  params: Record<string, string | undefined>;
  context: { cspNonce: string; clientIp: string };
}) => unknown;
export type RouteModule = { loader?: Handler; action?: Handler };

export type RouteCall = {
  method?: string;
  path: string;
  params?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  body?: string | Uint8Array | null;
  /** A JSON body: serialized and sent with Content-Type: application/json. */
  json?: unknown;
  ip?: string;
  /** The request's abort signal: what Remix aborts when the client goes before the response has finished. */
  signal?: AbortSignal;
};

export async function callRoute(route: RouteModule, call: RouteCall): Promise<Response> {
  const method = call.method ?? (call.json !== undefined || call.body !== undefined ? "POST" : "GET");
  const headers = new Headers(call.headers);
  let body = call.body ?? undefined;
  if (call.json !== undefined) {
    body = JSON.stringify(call.json);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  const request = new Request(`http://localhost:3000${call.path}`, {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : (body as BodyInit | undefined),
    signal: call.signal,
  });
  const handler = method === "GET" || method === "HEAD" ? route.loader : route.action;
  if (!handler) throw new Error(`The route has no ${method === "GET" || method === "HEAD" ? "loader" : "action"}`);
  try {
    const result = await handler({
      request,
      params: call.params ?? {},
      context: { cspNonce: "", clientIp: call.ip ?? "127.0.0.1" },
    });
    if (!(result instanceof Response)) throw new Error("The route did not answer with a Response");
    return result;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

/** The cookie pairs ("name=value") a response sets, for the next request's Cookie header. */
export function cookiesFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/**
 * A new client address per call, counting up in the octets after `prefix` ("10.1" gives 10.1.0.1,
 * 10.1.0.2, … 10.1.1.0, …), so a per-address rate limit only bites where a test means it to.
 * Each test file takes its own prefix, apart from the fixed addresses its tests use.
 */
export function addressSequence(prefix: string): () => string {
  const free = 4 - prefix.split(".").length;
  let count = 0;
  return () => {
    count += 1;
    const octets: number[] = [];
    for (let i = 0, rest = count; i < free; i++, rest = Math.floor(rest / 250)) octets.unshift(rest % 250);
    return [prefix, ...octets].join(".");
  };
}

/** A page form's POST as a browser sends it: the fields urlencoded, with the Cookie header when one is given. */
export function formPost(path: string, fields: Record<string, string>, cookie = ""): RouteCall {
  return {
    method: "POST",
    path,
    body: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  };
}

/** Route modules by the names a test calls them, each typed as the loader and action callRoute calls. */
export function routeModules<Name extends string>(modules: Record<Name, object>): Record<Name, RouteModule> {
  return modules as Record<Name, RouteModule>;
}
