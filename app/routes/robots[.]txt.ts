import type { LoaderFunctionArgs } from "@remix-run/node";
import { INDEXABLE_PORTAL_PAGES } from "~/http/security.server";
import { getEnv } from "~/server/env.server";

export function loader(_: LoaderFunctionArgs) {
  const body = [
    "User-agent: *",
    // The longest matching rule wins, so the portal's doors stay open while the rest is closed.
    ...INDEXABLE_PORTAL_PAGES.map((page) => `Allow: ${page}$`),
    "Disallow: /financing",
    "Disallow: /auth/",
    "Disallow: /api/",
    "Disallow: /pdfs/download.pdf",
    "Disallow: /video/investorvideo.mp4",
    "",
    `Sitemap: ${new URL("/sitemap.xml", getEnv().appUrl).href}`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
