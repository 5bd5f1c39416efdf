/**
 * The administrators' NDA page posts multipart forms (a file for the template or a verification, or the
 * investor to countersign), read here once: small PDFs, whole, under the library's PDF limit.
 */
import { formBodyErrors } from "~/content/forms";
import { ndaAdminContent } from "~/content/nda";
import { MATERIAL_LIMITS } from "~/lib/material-limits";

type File = { bytes: Uint8Array; fileName: string };
export type NdaAdminForm =
  | { ok: true; intent: "upload" | "verify"; file: File }
  | { ok: true; intent: "countersign"; investorId: string; investorEmail: string }
  | { ok: false; status: 400 | 413 | 415; message: string };

export async function readNdaAdminForm(request: Request): Promise<NdaAdminForm> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== "multipart/form-data") return { ok: false, status: 415, message: formBodyErrors.wrongContentType };
  if (Number(request.headers.get("content-length") ?? 0) > MATERIAL_LIMITS.pdf + 64 * 1024) {
    return { ok: false, status: 413, message: ndaAdminContent.noFile };
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, status: 400, message: formBodyErrors.unreadable };
  }
  const intent = form.get("intent");
  if (intent === "countersign") {
    const investorId = form.get("investorId");
    if (typeof investorId !== "string" || !investorId)
      return { ok: false, status: 400, message: formBodyErrors.unreadable };
    const email = form.get("investorEmail");
    return { ok: true, intent, investorId, investorEmail: typeof email === "string" ? email : "" };
  }
  if (intent !== "upload" && intent !== "verify") return { ok: false, status: 400, message: formBodyErrors.unreadable };
  const file = form.get("file");
  if (!file || typeof file === "string" || file.size === 0)
    return { ok: false, status: 400, message: ndaAdminContent.noFile };
  if (file.size > MATERIAL_LIMITS.pdf) return { ok: false, status: 413, message: ndaAdminContent.noFile };
  return { ok: true, intent, file: { bytes: new Uint8Array(await file.arrayBuffer()), fileName: file.name } };
}
