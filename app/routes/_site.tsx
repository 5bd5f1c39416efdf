import { Outlet } from "@remix-run/react";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";

/** The public site's frame: header, page, footer. */
export default function SiteLayout() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="page">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}
