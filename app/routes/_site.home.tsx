import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { LandingPage, landingLinks } from "~/components/landing-page";
import { contactSection, landingMeta, signedInBar } from "~/content/landing";
import { landingContent } from "~/content/landing.server";
import { getSessionUser } from "~/http/auth.server";
import { handleContactForm } from "~/http/contact-form.server";
import { honeypotFields } from "~/http/honeypot.server";
import { keepRetryAfter } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";

export const links: LinksFunction = () => landingLinks;

/** /home is the landing page, plus a working Log Out for a signed-in visitor. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  return { signedInAs: user?.email ?? null, ...landingContent(), honeypot: honeypotFields() };
}

export async function action(args: ActionFunctionArgs) {
  return handleContactForm(args, { redirectTo: `/home#${contactSection.id}` });
}

export const headers = keepRetryAfter;

export const meta: MetaFunction = () => pageMeta(landingMeta.homeAlias.title, landingMeta.homeAlias.description);

export default function HomePage() {
  const { signedInAs, ...content } = useLoaderData<typeof loader>();
  return (
    <>
      {signedInAs ? (
        <div className="signed-in-bar">
          <p>{signedInBar.text(signedInAs)}</p>
          {/* A POST, so that a link or a prefetch can never sign anyone out. */}
          <Form method="post" action="/financing/logout">
            <button type="submit" className="button button--secondary">
              {signedInBar.logOut}
            </button>
          </Form>
        </div>
      ) : null}
      <LandingPage {...content} />
    </>
  );
}
