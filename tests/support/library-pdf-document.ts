/** A published PDF of the library, `pages` long, made through the administrators' own model calls. */
import { toPublicUser } from "~/models/account/user.server";
import { createDocument, setPublished } from "~/models/library/library-changes.server";
import { storeBlob } from "~/server/blob-store.server";
import { createUser } from "./factories";
import { numberedPdf } from "./numbered-pdf";

export async function publishedPdfDocument(title: string, pages: number): Promise<string> {
  const admin = toPublicUser(await createUser({ role: "administrator" }));
  const bytes = await numberedPdf(pages);
  async function* once() {
    yield bytes;
  }
  const blob = await storeBlob(once(), { limitFor: () => bytes.byteLength });
  const created = await createDocument(
    {
      title,
      description: "",
      kind: "pdf",
      audience: "signed",
      chosenUserIds: [],
      upload: {
        blobId: blob.id,
        fileName: `${title}.pdf`,
        contentType: "application/pdf",
        size: blob.size,
        sha256: blob.sha256,
        captionsBlobId: null,
      },
    },
    { user: admin, ip: null },
  );
  if (!created.ok) throw new Error(created.message);
  await setPublished(created.id, true, { user: admin, ip: null });
  return created.id;
}
