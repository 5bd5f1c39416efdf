import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MaterialsRefusal } from "~/components/portal-refusal";
import { readVideoAgreement, VideoDisclaimer } from "~/components/video-disclaimer";
import { investorVideo } from "~/content/portal";
import { requireMaterialsView } from "~/http/auth.server";
import { pageMeta } from "~/lib/meta";
import videoStyles from "~/styles/video.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: videoStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireMaterialsView(request, context.clientIp);
  return json(readVideoAgreement(new URL(request.url)));
}

export const meta: MetaFunction = () => pageMeta(investorVideo.title, investorVideo.description);

export default function InvestorVideoPage() {
  const agreement = useLoaderData<typeof loader>();
  return (
    <VideoDisclaimer
      heading={investorVideo.heading}
      disclaimerHeading={investorVideo.disclaimerHeading}
      disclaimer={investorVideo.disclaimer}
      video={investorVideo.video}
      agreement={agreement}
    />
  );
}

export const ErrorBoundary = MaterialsRefusal;
