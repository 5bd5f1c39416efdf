import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { readVideoAgreement, VideoDisclaimer } from "~/components/video-disclaimer";
import { introVideo } from "~/content/intro-video";
import { pageMeta } from "~/lib/meta";
import videoStyles from "~/styles/video.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: videoStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  return json(readVideoAgreement(new URL(request.url)));
}

export const meta: MetaFunction = () => pageMeta(introVideo.title, introVideo.description);

export default function IntroVideoPage() {
  const agreement = useLoaderData<typeof loader>();
  return (
    <VideoDisclaimer
      heading={introVideo.heading}
      disclaimerHeading={introVideo.disclaimerHeading}
      disclaimer={introVideo.disclaimer}
      video={introVideo.video}
      agreement={agreement}
    />
  );
}
