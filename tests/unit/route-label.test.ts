/**
 * The metrics' route label (app/http/route-label.server.ts) against Remix's own matcher: for every route
 * of the app, and for paths no route serves, the label is the id of the route Remix would run, or a
 * fixed label; never the path.
 */
import path from "node:path";
import { readConfig } from "@remix-run/dev/dist/config.js";
import { matchRoutes } from "@remix-run/react";
import { routeLabeller, type ManifestRoute } from "~/http/route-label.server";

const STATIC_ROOTS = ["build", "images", "favicon.ico"];

let manifest: Record<string, ManifestRoute>;
let label: (path: string) => string;

beforeAll(async () => {
  const config = await readConfig(path.resolve(__dirname, "../.."));
  manifest = config.routes;
  label = routeLabeller(manifest, STATIC_ROOTS);
});

/** What Remix's server does (createRoutes, then matchRoutes): the id of the last route matched. */
function remixMatch(pathname: string): string | undefined {
  const tree = (parentId: string | undefined): object[] =>
    Object.values(manifest)
      .filter((route) => route.parentId === parentId)
      .map((route) => ({ ...route, children: tree(route.id) }));
  return matchRoutes(tree(undefined) as Parameters<typeof matchRoutes>[0], pathname)?.at(-1)?.route.id;
}

/** A path each route serves: its parameters filled in, a splat given two segments. */
function samplePaths(): string[] {
  const fullPath = (route: ManifestRoute): string =>
    [route.parentId ? fullPath(manifest[route.parentId]) : "", route.path ?? ""].filter(Boolean).join("/");
  return Object.values(manifest).flatMap((route) => {
    const filled = `/${fullPath(route)}`.replace(/:[\w-]+/g, "c4f1e2").replace(/\*$/, "a/b");
    return [filled, `${filled}/`.replace(/\/\/$/, "/"), filled.toUpperCase()];
  });
}

it("labels every path a route serves with the id of the route Remix runs", () => {
  const paths = samplePaths();
  expect(paths.length).toBeGreaterThan(100);
  for (const pathname of paths) expect(label(pathname), pathname).toBe(remixMatch(pathname));
});

it("labels a path no route serves 'unmatched', and static files 'static', whatever ids or tokens they hold", () => {
  for (const pathname of ["/nope", "/financing/investors/1/2/3/4", "/api/nope", "/api/auth/verify", "/.env"]) {
    expect(remixMatch(pathname), pathname).toBeUndefined();
    expect(label(pathname), pathname).toBe("unmatched");
  }
  for (const pathname of [
    "/build/entry.client-ABC123.js",
    "/build/missing.js",
    "/images/team/x.webp",
    "/favicon.ico",
  ]) {
    expect(label(pathname), pathname).toBe("static");
  }
  // A token in the path stays out of the label: the route's id names it.
  expect(label("/auth/verify/secret-token-value")).toBe("routes/auth.verify.$token");
  expect(label("/financing/resetpassword/another-secret")).toBe("routes/financing.resetpassword.$token");
});
