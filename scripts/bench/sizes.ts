/** Sizes: the JavaScript each page loads (from the build manifest) and the bytes of / up to its first render. */
import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { config } from "./config";
import { request } from "./measure";

const GZIP = { "Accept-Encoding": "gzip" };

type ManifestEntry = { module: string; imports?: string[] };
type Manifest = { url?: string; entry: ManifestEntry; routes: Record<string, ManifestEntry & { parentId?: string }> };

export function readManifest(): { manifest: Manifest; file: string } {
  const client = path.join(config.buildDir, "client");
  const name = fs.readdirSync(client).find((file) => /^manifest-[\w-]+\.js$/.test(file));
  if (!name) throw new Error(`No manifest-*.js in ${client}: is the build complete?`);
  const text = fs.readFileSync(path.join(client, name), "utf8");
  const json = text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
  return { manifest: JSON.parse(json) as Manifest, file: `/build/${name}` };
}

/** The bytes the server sends for a script to a browser that accepts gzip (precompressed, or compressed on the fly). */
async function bytesOnTheWire(url: string): Promise<number> {
  const answer = await request(url, { headers: GZIP });
  if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}.`);
  return answer.body.length;
}

/**
 * Bytes on the wire (gzip) of every script a page loads: the entry, then each route from
 * `leafRouteId` up to root (module and imports), and the manifest file when
 * the page's HTML loads it (a script or a module preload). Shared chunks count once.
 */
export async function javascriptShipped(leafRouteId: string, html: string) {
  const { manifest, file } = readManifest();
  const urls = new Set<string>([manifest.entry.module, ...(manifest.entry.imports ?? [])]);
  for (let id: string | undefined = leafRouteId; id; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`The manifest has no route '${id}'.`);
    urls.add(route.module);
    for (const url of route.imports ?? []) urls.add(url);
  }
  // Only when the page loads it: with lazy route discovery the inline manifest names the file, but nothing fetches it.
  if (loadedScripts(html).has(file)) urls.add(file);
  const sizes = await Promise.all([...urls].map(async (url) => ({ url, bytes: await bytesOnTheWire(url) })));
  const largest = sizes.sort((a, b) => b.bytes - a.bytes).slice(0, 3);
  return { bytes: sizes.reduce((sum, file) => sum + file.bytes, 0), files: urls.size, largest };
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag)?.[1];

/** The scripts the HTML makes the browser fetch: `<script src>` and `<link rel="modulepreload">`. */
function loadedScripts(html: string): Set<string> {
  const urls = new Set<string>();
  for (const [tag] of html.matchAll(/<script\b[^>]*\ssrc="[^"]*"[^>]*>/gi)) urls.add(attribute(tag, "src")!);
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    if ((attribute(tag, "rel") ?? "").toLowerCase() === "modulepreload") urls.add(attribute(tag, "href")!);
  }
  return urls;
}

/** Same-origin resources the HTML asks for before it can render: styles, scripts, preloads, images, posters, icons. */
function firstRenderResources(html: string): string[] {
  const urls = new Set<string>();
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attribute(tag, "rel") ?? "").toLowerCase();
    const as = (attribute(tag, "as") ?? "").toLowerCase();
    const href = attribute(tag, "href");
    if (!href) continue;
    if (
      rel === "stylesheet" ||
      rel === "modulepreload" ||
      rel.includes("icon") ||
      (rel === "preload" && as !== "video")
    ) {
      urls.add(href);
    }
  }
  for (const [tag] of html.matchAll(/<script\b[^>]*\ssrc="[^"]*"[^>]*>/gi)) urls.add(attribute(tag, "src")!);
  for (const [tag] of html.matchAll(/<img\b[^>]*>/gi)) {
    const src = attribute(tag, "src");
    if (src && !/loading="lazy"/i.test(tag)) urls.add(src);
  }
  for (const [tag] of html.matchAll(/<video\b[^>]*>/gi)) {
    const poster = attribute(tag, "poster");
    if (poster) urls.add(poster);
  }
  for (const [, inline] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const [, url] of inline.matchAll(/import\s*\(?\s*"(\/build\/[^"]+\.js)"/g)) urls.add(url);
  }
  return [...urls]
    .map((url) => url.replaceAll("&amp;", "&"))
    .filter((url) => url.startsWith("/") && !url.startsWith("//") && !/\.(mp4|webm|ogv|mov)(\?|$)/i.test(url));
}

const text = (answer: { headers: Record<string, unknown>; body: Buffer }) =>
  (answer.headers["content-encoding"] === "gzip" ? gunzipSync(answer.body) : answer.body).toString("utf8");

/** Bytes on the wire (gzip where the server compresses) of a page and what its first render needs, the video excluded. */
export async function pageWeight(pathname: string) {
  const page = await request(pathname, { headers: GZIP });
  if (page.status !== 200) throw new Error(`GET ${pathname} answered ${page.status}.`);
  const html = text(page);
  let bytes = page.body.length;
  const byKind: Record<string, number> = { html: page.body.length };
  const queue = firstRenderResources(html);
  const seen = new Set(queue);
  let count = 1;
  while (queue.length > 0) {
    const url = queue.shift()!;
    const answer = await request(url, { headers: GZIP });
    if (answer.status !== 200) throw new Error(`GET ${url} (needed by ${pathname}) answered ${answer.status}.`);
    bytes += answer.body.length;
    const kind = /\.(\w+)(\?|$)/.exec(url)?.[1] ?? "other";
    byKind[kind] = (byKind[kind] ?? 0) + answer.body.length;
    count += 1;
    if (/\.css(\?|$)/.test(url)) {
      const css = text(answer);
      // Fonts and background images a stylesheet names (all counted, whether or not the first screen uses them).
      for (const [, ref] of css.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)) {
        if (ref.startsWith("data:")) continue;
        const absolute = new URL(ref, `http://x${url}`).pathname;
        if (!seen.has(absolute) && !/\.(mp4|webm)$/i.test(absolute)) {
          seen.add(absolute);
          queue.push(absolute);
        }
      }
    }
  }
  return { bytes, files: count, byKind };
}
