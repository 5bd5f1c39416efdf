import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, methodNotAllowed } from "~/http/api.server";
import { servedOpenApiDocument } from "~/openapi/openapi.server";
import { getEnv } from "~/server/env.server";

/** GET → the OpenAPI 3.1 document of the JSON API, generated from its schemas, its server this site's APP_URL. */
export function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  return apiJson(servedOpenApiDocument(getEnv().appUrl));
}

export const action = () => methodNotAllowed(["GET"]);
