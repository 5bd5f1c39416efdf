import { Outlet } from "@remix-run/react";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";

/**
 * Every page in this frame renders the same for every visitor who sends no cookie
 * (it reads nothing from the request but its path and cookies), so server.js may
 * serve it to them from the page cache (app/server/page-cache.server.ts). A page
 * that ever reads more of the request must not live here.
 */
export const handle = { anonymousPageCache: true };

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
