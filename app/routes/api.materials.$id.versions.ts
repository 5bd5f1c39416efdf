import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { libraryApiMessages } from "~/content/library-api";
import { materialsMessages } from "~/content/materials";
import { apiError, apiJson, methodNotAllowed, readApiParam } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { discardUpload, readMaterialUpload } from "~/http/material-upload.server";
import { addVersion } from "~/models/library/library-changes.server";
import { getLibraryDocument } from "~/models/library/library-documents.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/**
 * POST multipart { file, captions? } → 201 { id, version } (administrators only): the document's new
 * version. An unknown document is 404 before a byte of the file is read; a file of the other kind is 400.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const user = await requireApiUser(request, { role: "administrator" });
  const id = readApiParam("id", params.id, z.string());
  if (!(await getLibraryDocument(id))) return apiError(404, materialsMessages.notFound);
  const read = await readMaterialUpload(request);
  if (!read.ok) return apiError(read.status, read.message);
  const { upload } = read;
  if (!upload)
    return apiError(400, libraryApiMessages.fileRequired, { issues: { file: [libraryApiMessages.fileRequired] } });

  const added = await addVersion(id, upload.kind, upload, { user, ip: context.clientIp });
  if (!added.ok) {
    await discardUpload(upload);
    return apiError(added.status, added.message);
  }
  return apiJson({ id, version: added.number } satisfies AnswerOf<"MaterialVersion">, { status: 201 });
}

export const loader = () => methodNotAllowed(["POST"]);
