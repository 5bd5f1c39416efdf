import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, readApiQuery } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { investorListBody, investorListQuerySchema } from "~/models/investors/investor-list-api.server";

/**
 * GET → 200 { users } (administrators only), oldest first: every investor; or, with `limit` and/or
 * `cursor`, a page and `nextCursor` while more remain; or, with `offset`, the older offset page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  await requireApiUser(request, { role: "administrator" });
  const body = await investorListBody(readApiQuery(request, investorListQuerySchema));
  return new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } });
}

export const action = () => methodNotAllowed(["GET"]);
