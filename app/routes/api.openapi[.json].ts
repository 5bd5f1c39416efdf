import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, methodNotAllowed } from "~/http/api.server";
import { openApiDocument } from "~/http/openapi.server";

/** GET → the OpenAPI 3.1 document of the JSON API, generated from its schemas. */
export function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  return apiJson(openApiDocument());
}

export const action = () => methodNotAllowed(["GET"]);
