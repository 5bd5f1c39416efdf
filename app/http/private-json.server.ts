/**
 * What a signed-in person's page answers with (its data, a form's refusal) is theirs alone: no cache,
 * shared or the browser's, keeps it.
 */
import { json } from "@remix-run/node";
import { refusalInit } from "./retry-after";

export const NO_STORE = { "Cache-Control": "private, no-store" };

/** JSON for one signed-in person, never kept by a cache; a refusal may say when to try again. */
export function privateJson<Data>(data: Data, status = 200, retryAfterSeconds?: number) {
  return json(data, { status, headers: { ...NO_STORE, ...refusalInit({ status, retryAfterSeconds }).headers } });
}
