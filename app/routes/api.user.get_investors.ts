import type { LoaderFunctionArgs } from "@remix-run/node";
import { API_INVESTOR_PAGE_DEFAULT } from "~/content/constants";
import { methodNotAllowed, readApiQuery } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import {
  encodeInvestorCursor,
  investorListQuerySchema,
  investorPageJson,
  investorsJson,
} from "~/models/investor-admin.server";

/**
 * GET → 200 { users } (administrators only), oldest first: every investor; or, with `limit` and/or
 * `cursor`, a page and `nextCursor` while more remain; or, with `offset`, the older offset page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  await requireApiUser(request, { role: "administrator" });
  const { limit, cursor, offset } = readApiQuery(request, investorListQuerySchema);
  // The lists are JSON already (SQLite builds them): they go out as they are, inside { users }.
  if (cursor === undefined && (limit === undefined || offset !== undefined)) {
    return jsonText(`{"users":${await investorsJson({ limit, offset })}}`);
  }
  const page = await investorPageJson({ limit: limit ?? API_INVESTOR_PAGE_DEFAULT, after: cursor });
  const next = page.next ? `,"nextCursor":${JSON.stringify(encodeInvestorCursor(page.next))}` : "";
  return jsonText(`{"users":${page.users}${next}}`);
}

function jsonText(body: string) {
  return new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } });
}

export const action = () => methodNotAllowed(["GET"]);
