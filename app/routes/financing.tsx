import type { LinksFunction } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { FinancingHeader } from "~/components/financing-header";
import { SiteFooter } from "~/components/site-footer";
import authStyles from "~/styles/auth.css";
import { loader } from "./financing.server";

export { loader };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: authStyles }];

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
