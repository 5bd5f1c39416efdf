import type { LoaderFunctionArgs } from "@remix-run/node";
import { publicPages } from "~/content/navigation";
import { INDEXABLE_PORTAL_PAGES } from "~/http/security.server";
import { getEnv } from "~/server/env.server";

export function loader(_: LoaderFunctionArgs) {
  const { appUrl } = getEnv();
  const urls = [...publicPages, ...INDEXABLE_PORTAL_PAGES].map(
    (page) => `  <url><loc>${new URL(page, appUrl).href}</loc></url>`,
  );
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
