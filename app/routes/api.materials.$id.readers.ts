import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { materialsMessages } from "~/content/materials";
import { apiError, apiJson, methodNotAllowed, readApiParam } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { readersAnswer } from "~/http/materials-api.server";
import { getLibraryDocument } from "~/models/library/library-documents.server";
import { readersOf } from "~/models/library/library-openings.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/** GET → 200 { id, title, readers } (administrators only): who opened the document; 404 for an unknown one. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET"]);
  await requireApiUser(request, { role: "administrator" });
  const id = readApiParam("id", params.id, z.string());
  const document = await getLibraryDocument(id);
  if (!document) return apiError(404, materialsMessages.notFound);
  return apiJson(readersAnswer(document, await readersOf(id)) satisfies AnswerOf<"MaterialReaders">);
}

export const action = () => methodNotAllowed(["GET"]);
