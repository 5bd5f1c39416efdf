/**
 * Download per document: an administrator shows a PDF in the viewer only, or lets investors download it
 * (audited); when not downloadable, a browser that navigates to the file is sent to the viewer, and no
 * copy is made, while the viewer's own request for the copy is served; the admin page says plainly that
 * this deters and records copying and does not prevent it.
 */
import { libraryContent } from "~/content/library";
import { toPublicUser } from "~/models/account/user.server";
import { listAuditEvents } from "~/models/audit/audit.server";
import { getLibraryDocument } from "~/models/library/library-documents.server";
import * as libraryDocumentRoute from "~/routes/financing.library.$id/route";
import * as documentRoute from "~/routes/financing.materials_.$documentId";
import * as viewerRoute from "~/routes/financing.materials_.$documentId_.read";
import { getDb } from "~/server/db.server";
import { callRoute, routeModules } from "../support/api-routes";
import { sessionHeaders } from "../support/factories";
import { useIntegration } from "../support/integration";
import { publishedPdfDocument } from "../support/library-pdf-document";

const routes = routeModules({ libraryDocument: libraryDocumentRoute, document: documentRoute, viewer: viewerRoute });

const { investor, administrator } = useIntegration();

async function setDownload(adminHeaders: Record<string, string>, id: string, intent: "viewer-only" | "allow-download") {
  return callRoute(routes.libraryDocument, {
    path: `/financing/library/${id}`,
    params: { id },
    headers: { ...adminHeaders, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent }).toString(),
  });
}

const copies = async (documentId: string) =>
  Number(
    (
      await getDb()
        .selectFrom("document_opens")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("document_id", "=", documentId)
        .executeTakeFirstOrThrow()
    ).n,
  );

it("shows a PDF in the viewer only: a navigation to the file opens the viewer, the viewer's fetch gets the copy; and back", async () => {
  const documentId = await publishedPdfDocument("Viewer only", 2);
  const admin = toPublicUser(await administrator());
  const adminHeaders = await sessionHeaders(admin.id);
  const reader = toPublicUser(await investor("nda-signed", { fullName: "Ada Reader", address: "1 Main St" }));
  const headers = await sessionHeaders(reader.id);

  const changed = await setDownload(adminHeaders, documentId, "viewer-only");
  expect(changed.status).toBe(302);
  expect((await getLibraryDocument(documentId))?.downloadable).toBe(false);
  const audit = (await listAuditEvents({ limit: 5 })).events.find((row) => row.action === "material.download_changed");
  expect(audit?.details).toContain('"downloadable":false');

  const open = (extra: Record<string, string>) =>
    callRoute(routes.document, {
      path: `/financing/materials/${documentId}`,
      params: { documentId },
      headers: { ...headers, ...extra },
    });
  const navigations: Record<string, string>[] = [{ "Sec-Fetch-Dest": "document" }, { Accept: "text/html,*/*" }];
  for (const navigation of navigations) {
    const response = await open(navigation);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/financing/materials/${documentId}/read`);
  }
  expect(await copies(documentId)).toBe(0);
  const fetched = await open({ "Sec-Fetch-Dest": "empty", Accept: "*/*" });
  expect(fetched.status).toBe(200);
  expect(fetched.headers.get("Content-Type")).toBe("application/pdf");
  await fetched.arrayBuffer();
  expect(await copies(documentId)).toBe(1);

  const viewer = await callRoute(routes.viewer, {
    path: `/financing/materials/${documentId}/read`,
    params: { documentId },
    headers,
  });
  expect(await viewer.json()).toMatchObject({ downloadable: false });

  expect((await setDownload(adminHeaders, documentId, "allow-download")).status).toBe(302);
  const downloaded = await open({ "Sec-Fetch-Dest": "document" });
  expect(downloaded.status).toBe(200);
  expect(downloaded.headers.get("Content-Type")).toBe("application/pdf");
});

it("refuses the change to an investor, and says on the admin page that it deters and records, not prevents", async () => {
  const documentId = await publishedPdfDocument("Still downloadable", 1);
  const reader = toPublicUser(await investor("nda-signed", { fullName: "Ida Investor", address: "1 Main St" }));
  const refused = await setDownload(await sessionHeaders(reader.id), documentId, "viewer-only");
  expect(refused.status).toBe(403);
  expect((await getLibraryDocument(documentId))?.downloadable).toBe(true);
  expect(libraryContent.document.downloadHonesty).toMatch(/deters copying and records/);
  expect(libraryContent.document.downloadHonesty).toMatch(/does not prevent copying/i);
});
