import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, json, redirect } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { MaterialsRefusal } from "~/components/portal-refusal";
import { readVideoAgreement, VideoDisclaimer } from "~/components/video-disclaimer";
import { libraryView, materialsMessages } from "~/content/materials";
import { investorVideo } from "~/content/portal";
import { viewerText } from "~/content/reading";
import { useWatchReport } from "~/hooks/use-watch-report";
import { requireMaterialsView } from "~/http/auth.server";
import { openableDocumentFor } from "~/http/library-file.server";
import { pageMeta } from "~/lib/meta";
import videoStyles from "~/styles/video.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: videoStyles }];

/** A video of the library: its disclaimer, then the player, with the captions uploaded with it. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireMaterialsView(request, context.clientIp);
  const { document, captionsBlobId } = await openableDocumentFor(user, params.documentId, context.clientIp);
  if (document.kind !== "video") return redirect(`/financing/materials/${document.id}`);
  return json({
    id: document.id,
    title: document.title,
    description: document.description,
    hasCaptions: captionsBlobId !== null,
    agreement: readVideoAgreement(new URL(request.url)),
    privacyNotice: viewerText.videoPrivacyNotice(),
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data?.title ?? libraryView.videoFallbackTitle, data?.description || libraryView.videoDescription);

export default function LibraryVideoPage() {
  const { id, title, hasCaptions, agreement, privacyNotice } = useLoaderData<typeof loader>();
  const base = `/financing/materials/${id}`;
  useWatchReport(`${base}/watching`);
  return (
    <>
      <VideoDisclaimer
        heading={title}
        disclaimerHeading={investorVideo.disclaimerHeading}
        disclaimer={investorVideo.disclaimer}
        video={{ src: `${base}/file`, label: title }}
        captions={
          hasCaptions ? { src: `${base}/captions.vtt`, label: libraryView.captionsLabel, language: "en" } : null
        }
        agreement={agreement}
      />
      <p className="section video-page__text">{privacyNotice}</p>
    </>
  );
}

/** A document outside the investor's audience is refused in its own words; the rest as every materials page. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403 && error.data === materialsMessages.notInAudience)
    return (
      <section className="portal-status" aria-labelledby="document-refusal-heading">
        <h1 id="document-refusal-heading">{libraryView.refusalHeading}</h1>
        <p>{materialsMessages.notInAudience}</p>
        <p>
          <Link to="/financing/materials">{libraryView.backToMaterials}</Link>
        </p>
      </section>
    );
  return <MaterialsRefusal />;
}
