/**
 * The route a request's path belongs to, as a metrics label: the id of the Remix route that serves it
 * (`routes/financing.login`, `routes/api.auth.login`), or one of two fixed labels, `static` (the
 * build's scripts and the files of public/) and `unmatched` (no route). The path itself never becomes
 * a label, so the ids and tokens in it never do.
 *
 * Remix's own matcher (matchRoutes) ranks every route again on each call, about a tenth of a
 * millisecond here; this one ranks them once, the same way (each route's score, then the order of
 * siblings), and then tries one regular expression per route, best first.
 * tests/unit/route-label.test.ts holds it to matchRoutes for every route of the build.
 */

export const STATIC_LABEL = "static";
export const UNMATCHED_LABEL = "unmatched";

/** A route of the build's manifest (build.routes), as far as matching needs it. */
export type ManifestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
};

type Branch = { id: string; path: string; score: number; indexes: number[]; caseSensitive: boolean };

/**
 * A function from a path as server.js decodes it (res.locals.path) to its label. `staticRoots` are the
 * first segments of the addresses static files are served under (`build`, and each entry of public/).
 */
export function routeLabeller(
  routes: Record<string, ManifestRoute | undefined>,
  staticRoots: readonly string[],
): (path: string) => string {
  const staticPath = staticRoots.length
    ? new RegExp(`^/(?:${staticRoots.map(escapeRegExp).join("|")})(?:/|$)`)
    : /^(?!)/;
  const matchers = rankedBranches(routes).map((branch) => ({
    id: branch.id,
    pattern: compilePath(branch.path, branch.caseSensitive),
  }));
  return (path) => {
    if (staticPath.test(path)) return STATIC_LABEL;
    for (const matcher of matchers) if (matcher.pattern.test(path)) return matcher.id;
    return UNMATCHED_LABEL;
  };
}

/** Every route that can be the last of a match, with its whole path, best ranked first (as @remix-run/router ranks them). */
function rankedBranches(routes: Record<string, ManifestRoute | undefined>): Branch[] {
  const children = new Map<string, ManifestRoute[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const parent = route.parentId ?? "";
    children.set(parent, [...(children.get(parent) ?? []), route]);
  }
  const branches: Branch[] = [];
  const flatten = (parentId: string, parentPath: string, parentIndexes: number[], caseSensitive: boolean) => {
    for (const [index, route] of (children.get(parentId) ?? []).entries()) {
      const path = joinPaths(parentPath, route.path ?? "");
      const indexes = [...parentIndexes, index];
      const sensitive = caseSensitive || route.caseSensitive === true;
      // The children first, as the router flattens them: among equal scores the earlier stays first.
      flatten(route.id, path, indexes, sensitive);
      // A route without a path matches nothing by itself unless it is an index route.
      if (route.path === undefined && !route.index) continue;
      branches.push({
        id: route.id,
        path,
        score: scoreOf(path, route.index === true),
        indexes,
        caseSensitive: sensitive,
      });
    }
  };
  flatten("", "", [], false);
  return branches.sort((a, b) => b.score - a.score || siblingOrder(a.indexes, b.indexes));
}

const DYNAMIC = /^:[\w-]+$/;

/** The router's score: static segments above dynamic ones, a splat below, an index route a little above its parent. */
function scoreOf(path: string, index: boolean): number {
  const segments = path.split("/");
  let score = segments.length;
  if (segments.includes("*")) score -= 2;
  if (index) score += 2;
  for (const segment of segments) {
    if (segment === "*") continue;
    score += DYNAMIC.test(segment) ? 3 : segment === "" ? 1 : 10;
  }
  return score;
}

function siblingOrder(a: number[], b: number[]): number {
  const siblings = a.length === b.length && a.slice(0, -1).every((n, i) => n === b[i]);
  return siblings ? a[a.length - 1] - b[b.length - 1] : 0;
}

function joinPaths(parent: string, child: string) {
  return `${parent}/${child}`.replace(/\/\/+/g, "/");
}

/** The router's compilePath for a whole path (end: true), with groups that capture nothing. */
function compilePath(path: string, caseSensitive: boolean): RegExp {
  let source =
    "^" +
    path
      .replace(/\/*\*?$/, "")
      .replace(/^\/*/, "/")
      .replace(/[\\.*+^${}|()[\]]/g, "\\$&")
      .replace(/\/:[\w-]+(\?)?/g, (_whole, optional?: string) => (optional ? "/?(?:[^\\/]+)?" : "/(?:[^\\/]+)"));
  if (path.endsWith("*")) source += path === "*" || path === "/*" ? "(?:.*)$" : "(?:\\/(?:.+)|\\/*)$";
  else source += "\\/*$";
  return new RegExp(source, caseSensitive ? undefined : "i");
}

function escapeRegExp(text: string) {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}
