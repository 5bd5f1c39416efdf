import type { HeadersFunction } from "@remix-run/node";

/** A refusal that says when to try again: a throttle (429) or a lock (423). */
export type Refusal = { status: number; retryAfterSeconds?: number };

/** The status and `Retry-After` header of a refused request, for `json(data, refusalInit(outcome))`. */
export function refusalInit({ status, retryAfterSeconds }: Refusal): ResponseInit {
  return retryAfterSeconds ? { status, headers: { "Retry-After": String(retryAfterSeconds) } } : { status };
}

/**
 * A route's `headers` for pages whose action can refuse with a `Retry-After`: Remix builds a
 * document's headers from these, not from the action's response, so without it a browser
 * without JavaScript would get the 429 but not its Retry-After. (Not a *.server module: the
 * browser build drops `headers` exports, and with them this import.)
 */
export const keepRetryAfter: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};
