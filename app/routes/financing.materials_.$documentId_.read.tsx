import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PdfViewer } from "~/components/pdf-viewer";
import { MaterialsRefusal } from "~/components/portal-refusal";
import { viewerText } from "~/content/reading";
import { useHydrated } from "~/hooks/use-hydrated";
import { requireMaterialsView } from "~/http/auth.server";
import { openableDocumentFor } from "~/http/library-file.server";
import { pageMeta } from "~/lib/meta";
import viewerStyles from "~/styles/viewer.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: viewerStyles }];

/** A PDF of the library in the page's viewer, stamped for the reader; a video has its own page. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireMaterialsView(request, context.clientIp);
  const { document } = await openableDocumentFor(user, params.documentId, context.clientIp);
  if (document.kind === "video") return redirect(`/financing/materials/${document.id}/watch`);
  return json({
    id: document.id,
    title: document.title,
    description: document.description,
    downloadable: document.downloadable,
    privacyNotice: viewerText.privacyNotice(),
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data?.title ?? viewerText.fallbackTitle, data?.description || viewerText.description);

export default function LibraryPdfViewerPage() {
  const { id, title, downloadable, privacyNotice } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const fileHref = `/financing/materials/${id}`;
  return (
    <section className="portal-status pdf-viewer-page" aria-labelledby="viewer-heading">
      <h1 id="viewer-heading">{title}</h1>
      {hydrated ? (
        <PdfViewer
          fileHref={fileHref}
          readingHref={`/financing/materials/${id}/reading`}
          title={title}
          downloadable={downloadable}
        />
      ) : downloadable ? (
        <p>
          <a href={fileHref}>{viewerText.openPdf}</a>
        </p>
      ) : (
        <p>{viewerText.noScriptViewerOnly}</p>
      )}
      <aside className="pdf-viewer-page__notice" aria-labelledby="viewer-privacy-heading">
        <h2 id="viewer-privacy-heading">{viewerText.privacyHeading}</h2>
        <p>{privacyNotice}</p>
      </aside>
      <p>
        <Link to="/financing/materials">{viewerText.backToMaterials}</Link>
      </p>
    </section>
  );
}

export const ErrorBoundary = MaterialsRefusal;
