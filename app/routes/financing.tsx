import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { FinancingHeader } from "~/components/financing-header";
import { SiteFooter } from "~/components/site-footer";
import { getSessionUser } from "~/models/session.server";
import authStyles from "~/styles/auth.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: authStyles }];

/**
 * Only decides whether the header shows LOG OUT. It protects nothing: child
 * loaders run in parallel with this one, so each page calls its own guard.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  return json({ signedIn: user !== null });
}

export default function FinancingLayout() {
  const { signedIn } = useLoaderData<typeof loader>();
  return (
    <>
      <FinancingHeader signedIn={signedIn} />
      <main id="main" className="page">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}
