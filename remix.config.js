// BUILD_DIR lets several builds live side by side (e.g. parallel test runs); default build/.
const buildDir = process.env.BUILD_DIR || "build";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // A route's server side (loader, action, headers) may sit beside it in one <route>.server.ts,
  // which is then no route of its own. Why: the browser build turns each *.server import of a
  // route into an empty stand-in, and a stand-in several routes share becomes a script of its
  // own on their pages; one server module per route keeps its stand-in inside the route's script.
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/*.server.ts"],
  serverModuleFormat: "esm",
  serverBuildPath: `${buildDir}/index.js`,
  assetsBuildDirectory: `${buildDir}/client`,
  publicPath: "/build/",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    // Off, deliberately: docs/decisions/0012-no-single-fetch-yet.md.
    v3_singleFetch: false,
  },
};
