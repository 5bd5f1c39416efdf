import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiError, methodNotAllowed } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { investorsJson } from "~/models/investor-admin.server";

const MAX_LIMIT = 1000;

/** A non-negative whole number in decimal digits, or undefined when absent; null when malformed. */
function readCount(value: string | null, max: number): number | undefined | null {
  if (value === null) return undefined;
  if (!/^\d{1,7}$/.test(value)) return null;
  const number = Number(value);
  return number <= max ? number : null;
}

/** GET → 200 { users }: every investor (administrators only), or a page of them with ?limit=&offset=. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  await requireApiUser(request, { role: "administrator" });
  const params = new URL(request.url).searchParams;
  const limit = readCount(params.get("limit"), MAX_LIMIT);
  const offset = readCount(params.get("offset"), Number.MAX_SAFE_INTEGER);
  if (limit === null || (limit !== undefined && limit < 1)) {
    return apiError(400, `'limit' must be a whole number from 1 to ${MAX_LIMIT}.`, {
      issues: { limit: [`Must be a whole number from 1 to ${MAX_LIMIT}.`] },
    });
  }
  if (offset === null) {
    return apiError(400, "'offset' must be a whole number, 0 or more.", {
      issues: { offset: ["Must be a whole number, 0 or more."] },
    });
  }
  // The list is JSON already (SQLite builds it): it goes out as it is, inside { users }.
  return new Response(`{"users":${await investorsJson({ limit, offset })}}`, {
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
}

export const action = () => methodNotAllowed(["GET"]);
