import type { LoaderFunctionArgs } from "@remix-run/node";
import { getEnv } from "~/utils/env.server";

export function loader(_: LoaderFunctionArgs) {
  const body = [
    "User-agent: *",
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
