import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { libraryApiMessages } from "~/content/library-api";
import { apiError, apiJson, methodNotAllowed } from "~/http/api.server";
import { requireApiUser } from "~/http/auth.server";
import { parseSubmission } from "~/http/form-submission.server";
import { discardUpload, readMaterialUpload } from "~/http/material-upload.server";
import { materialAnswer } from "~/http/materials-api.server";
import { canSeeMaterials } from "~/models/library/access.server";
import { listOpenableDocuments } from "~/models/library/library-access.server";
import { createDocument } from "~/models/library/library-changes.server";
import { getLibraryDocument, listLibrary } from "~/models/library/library-documents.server";
import { chosenInvestorIds, materialFieldsSchema } from "~/models/library/material-fields.server";
import type { AnswerOf } from "~/openapi/api-contract.server";

/**
 * GET → 200 { documents }: for an investor whose NDA is signed, what they may open (403 before it is
 * signed); for an administrator, the whole library, with each document's audience and state.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET", "POST"]);
  const user = await requireApiUser(request);
  const forAdministrator = user.role.name === "administrator";
  if (!canSeeMaterials(user)) return apiError(403, libraryApiMessages.ndaNotSigned);
  const documents = forAdministrator ? await listLibrary() : await listOpenableDocuments(user, null);
  return apiJson({
    documents: documents.map((document) => materialAnswer(document, { forAdministrator })),
  } satisfies AnswerOf<"MaterialList">);
}

/**
 * POST multipart { title, description, audience, chosen…, file, captions? } → 201 with the new document, a draft
 * (administrators only). A refused file or field stores nothing.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const user = await requireApiUser(request, { role: "administrator" });
  const read = await readMaterialUpload(request);
  if (!read.ok) return apiError(read.status, read.message);
  const { formData, upload } = read;

  const submission = parseSubmission(formData, materialFieldsSchema);
  const issues = { ...(submission.status === "error" ? submission.reply().error : {}) };
  const chosen = submission.status === "success" ? await chosenInvestorIds(submission.value) : null;
  if (chosen && !chosen.ok) issues.chosen = chosen.messages;
  if (!upload) issues.file = [libraryApiMessages.fileRequired];
  if (submission.status === "error" || !chosen?.ok || !upload) {
    if (upload) await discardUpload(upload);
    return apiError(400, Object.values(issues).flat()[0], { issues });
  }

  const created = await createDocument(
    { ...submission.value, kind: upload.kind, chosenUserIds: chosen.ids, upload },
    { user, ip: context.clientIp },
  );
  if (!created.ok) {
    await discardUpload(upload);
    return apiError(created.status, created.message);
  }
  const document = await getLibraryDocument(created.id);
  return apiJson(materialAnswer(document!, { forAdministrator: true }) satisfies AnswerOf<"Material">, {
    status: 201,
  });
}
