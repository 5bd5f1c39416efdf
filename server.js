// The production server: Express around the Remix build (docs/decisions/0001-express-server.md).
import "dotenv/config";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady } from "@remix-run/node";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import onHeaders from "on-headers";

// Every file the server makes (the database, its WAL, the outbox, generated keys) is its user's alone.
process.umask(0o077);

const root = path.dirname(fileURLToPath(import.meta.url));
const buildDir = path.resolve(root, process.env.BUILD_DIR || "build");

const bundle = await import(path.join(buildDir, "index.js"));
const app$ = bundle.entry.module;

// Whatever escapes every handler is logged as one JSON line, and the process ends: its state is unknown.
for (const event of ["uncaughtException", "unhandledRejection"]) {
  process.on(event, (error) => {
    app$.log("error", "process.fatal", { cause: event, error });
    process.exit(1);
  });
}

// Node's own warnings (an experimental Web Crypto call inside the WebAuthn library, say) go to the
// log as JSON lines like every other event, instead of Node printing plain text to stderr.
process.removeAllListeners("warning");
process.on("warning", (warning) => {
  app$.log("warn", "node.warning", { name: warning.name, message: warning.message });
});

// A server under the production rules (NODE_ENV=production, or an APP_URL the public can reach) must not serve
// with settings that would lose mail, weaken cookies or keys, or show placeholders.
if (app$.productionRulesApply(process.env)) {
  const problems = app$.productionConfigurationProblems(process.env);
  for (const problem of problems) app$.log("error", "config.refused", { problem });
  if (problems.length > 0) process.exit(1);
  for (const warning of app$.placeholderWarnings(process.env)) app$.log("warn", "config.placeholder", { warning });
}

const env = app$.getEnv();
// A database that is unavailable for a moment (busy, full, restarting, out of reach) answers 503, not 500
// (docs/decisions/0005).
const build = app$.withDatabaseUnavailableAnswers(bundle);

await app$.migrateDatabase();
const stopHousekeeping = app$.startHousekeeping();
// Alert e-mails to the administrators: digests at their hours, and any left unsent (docs/decisions/0036).
const stopAlerts = app$.startAlerts();
// Metrics for Prometheus (docs/operations.md): on a listener of their own (METRICS_PORT), or at /metrics here for a
// scrape with METRICS_TOKEN; METRICS=off (the bench's comparison) leaves every request uncounted.
const metrics = env.metrics.enabled ? app$.startMetrics(build, path.join(root, "public")) : null;

const app = express();
app.disable("x-powered-by");
// Pages carry a fresh nonce each time, so a body hash could never match; static files keep their own ETags.
app.set("etag", false);
if (env.trustProxy !== undefined) app.set("trust proxy", env.trustProxy);

// For load balancers and orchestrators: answered before anything else, never logged or rate-limited. The
// public learns only ready or not; why not goes to the log, once each time the reason changes.
let stopping = false;
/** @type {string | null} */
let unreadyReason = null;
app.get("/healthz", (_req, res) => {
  res.set("Cache-Control", "no-store").json({ status: "ok" });
});
app.get("/readyz", async (_req, res, next) => {
  try {
    const state = stopping ? { ready: false, reason: "The server is stopping." } : await app$.readiness();
    res.set("Cache-Control", "no-store");
    if (state.ready) {
      if (unreadyReason !== null) app$.log("info", "server.ready", {});
      unreadyReason = null;
      res.json({ status: "ready" });
      return;
    }
    if (state.reason !== unreadyReason) app$.log("warn", "server.unready", { reason: state.reason });
    unreadyReason = state.reason;
    res.status(503).json({ status: "unavailable" });
  } catch (error) {
    next(error);
  }
});

// The path as Remix will match it to a route (decoded, dot segments resolved), worked out once: every rule
// below reads res.locals.path, never req.path, so no spelling of a path (/%66inancing, /x/../api) escapes them.
app.use((req, res, next) => {
  const { path, malformed } = app$.decodeRequestPath(req.path);
  res.locals.path = path;
  res.locals.malformedPath = malformed;
  next();
});

// A scrape of the metrics with their token is answered here, before the request log: never logged or counted.
if (metrics?.publicEndpoint) app.use(metrics.publicEndpoint);

// A request id (a trusted proxy's, or a new one) on every log line written while the request is served,
// and one line per request; paths holding secrets are redacted. The metrics count it by route, never by path.
app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  res.locals.requestId = app$.requestIdFor(req.get("x-request-id"), env.trustProxy !== undefined, randomUUID);
  res.setHeader("X-Request-Id", res.locals.requestId);
  // On close rather than finish, so that a response the client dropped (a player's seek) is logged too, as aborted.
  res.on("close", () => {
    const elapsed = process.hrtime.bigint() - started;
    app$.log("info", "http.request", {
      requestId: res.locals.requestId,
      method: req.method,
      path: app$.redactPath(res.locals.path),
      status: res.statusCode,
      ...(res.locals.pageCache && { pageCache: res.locals.pageCache }),
      ...(!res.writableFinished && { aborted: true }),
      ms: Number(elapsed / 1_000_000n),
    });
    metrics?.observeRequest(
      req.method,
      res.locals.path,
      res.locals.malformedPath,
      res.statusCode,
      Number(elapsed) / 1e9,
    );
  });
  // SERVER_TIMING=on: the time to the headers and the database's share of it (app/server/server-timing.server.ts).
  const timing = env.serverTiming ? { databaseMs: 0 } : undefined;
  if (timing) onHeaders(res, () => res.setHeader("Server-Timing", app$.serverTimingHeader(started, timing)));
  app$.runWithRequestId(res.locals.requestId, next, timing);
});

// A method no route serves (TRACE, PROPFIND, ...) is refused here, before anything tries to handle it.
const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
app.use((req, res, next) => {
  if (SERVED_METHODS.includes(req.method)) return next();
  res.set("Allow", "GET, HEAD, POST, OPTIONS");
  sendError(req, res, 405, app$.httpErrors.methodNotAllowed);
});

// Security headers on every response, static files included.
app.use((req, res, next) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  const { "Cache-Control": cacheControl, ...headers } = app$.securityHeaders(
    { path: res.locals.path, spelledPath: req.path },
    nonce,
    env,
  );
  res.set(headers);
  // Every answer's default is no-store; whoever answers with their own (static files, robots.txt, the files) keeps it.
  onHeaders(res, () => {
    if (!res.getHeader("Cache-Control")) res.setHeader("Cache-Control", cacheControl);
  });
  next();
});

// An address no route could match is refused here, with the headers above: a malformed escape (as a client's
// error, logged with its stack) and a control character in the path or query (PostgreSQL cannot take a NUL
// in a query, SQLite can: refused before either engine sees it, the same 400 on both).
app.use((req, res, next) => {
  if (res.locals.malformedPath) return next(Object.assign(new URIError("Malformed path"), { status: 400 }));
  const search = req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?")) : "";
  if (!app$.hasControlCharacter(res.locals.path) && !app$.queryHasControlCharacter(search)) return next();
  sendError(req, res, 400, app$.httpErrors.controlCharacter);
});

// CORS for the JSON API, for the configured origins only.
app.use((req, res, next) => {
  if (!app$.isApiPath(res.locals.path)) return next();
  res.set(app$.corsHeaders(req.get("origin"), env));
  if (req.method === "OPTIONS") return res.status(204).end();
  next();
});

// Cross-origin writes are refused before Remix sees them (Remix's own check answers 500).
app.use((req, res, next) => {
  const refused = app$.isCrossOriginWrite(
    {
      method: req.method,
      pathname: res.locals.path,
      origin: req.get("origin"),
      secFetchSite: req.get("sec-fetch-site"),
    },
    env,
  );
  if (!refused) return next();
  // The operator's side of the refusal: which origin came, and which the server expects (APP_URL's).
  app$.log("warn", "request.cross_origin", {
    origin: req.get("origin") ?? null,
    secFetchSite: req.get("sec-fetch-site") ?? null,
    expected: env.siteOrigins,
  });
  sendError(req, res, 403, app$.httpErrors.crossOrigin(env.appUrl.origin));
});

// Oversized bodies are refused before anything reads them.
app.use((req, res, next) => {
  if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
  const limit = app$.bodyLimitFor(res.locals.path);
  const length = req.get("content-length");
  const chunked = length === undefined && req.get("transfer-encoding") !== undefined;
  if (!chunked && Number(length ?? 0) <= limit) return next();
  // The unread body is not drained: the connection closes after the answer.
  res.set("Connection", "close");
  if (chunked) sendError(req, res, 411, app$.httpErrors.lengthRequired);
  else sendError(req, res, 413, app$.httpErrors.tooLarge(limit));
});

// A copy asked for beyond its session's share of copies in flight is refused here, before the app's work for
// it (app/http/copy-gate.server.ts): a burst of them would otherwise hold every other reader up.
app.use((req, res, next) => {
  const place = app$.enterCopyGate({
    method: req.method,
    path: res.locals.path,
    cookie: req.get("cookie"),
    authorization: req.get("authorization"),
  });
  if (place === "pass") return next();
  if (place === "refuse")
    return res.status(app$.copyRefusal.status).set(app$.copyRefusal.headers).send(app$.copyRefusal.body);
  res.on("close", place);
  next();
});

/**
 * An answer the server gives itself: JSON `{ message }` under /api; for a page's script (Remix's data request,
 * `?_data=`), the same JSON marked as a thrown answer, so the page shows the message rather than "try again";
 * the site's error page for a browser without script.
 * @param {express.Request} req
 * @param {express.Response} res
 * @param {number} status
 * @param {string} message
 */
function sendError(req, res, status, message) {
  if (app$.isApiPath(res.locals.path ?? req.path)) return res.status(status).json({ message });
  if (req.query._data !== undefined) {
    const title = app$.httpErrors.titles[status] ?? app$.httpErrors.titles[400];
    return res.status(status).set("X-Remix-Catch", "yes").json({ title, message });
  }
  res.status(status).type("html").send(app$.errorPageHtml(status, message));
}

// Anonymous visitors get public pages from the page cache, with this response's own nonce. It is keyed by the
// address as sent, not res.locals.path: each spelling is kept as Remix rendered it for that spelling, and the
// rules above have already given this response its headers. It is compressed in one piece before compression()
// would stream it through the thread pool, so it leaves in this turn of the event loop (page-encoding.server.ts).
app.use((req, res, next) => {
  const page = app$.cachedPage(
    { method: req.method, url: req.originalUrl, cookie: req.get("cookie") },
    res.locals.cspNonce,
  );
  if (!page) return next();
  res.locals.pageCache = "hit";
  res.set(Object.fromEntries(page.headers));
  res.vary("Accept-Encoding");
  // A HEAD has no body to compress.
  const { encoding, body } = app$.encodePage(page.html, req.method === "GET" ? req.get("accept-encoding") : undefined);
  if (encoding !== "identity") res.set("Content-Encoding", encoding);
  res.send(body);
});
app.use(compression());

// Scripts and styles as the build precompressed them, brotli or gzip (scripts/precompress.js); compression() leaves them be.
app.use(
  "/build",
  expressStaticGzip(path.join(buildDir, "client"), {
    enableBrotli: true,
    orderPreference: ["br", "gz"],
    serveStatic: { immutable: true, maxAge: "1y" },
  }),
);
app.use(express.static(path.join(root, "public"), { maxAge: "1h" }));

// Remix compares a form's Origin with the Host (or X-Forwarded-Host) header, and answers 500 when they differ:
// behind a proxy that rewrites Host (nginx's proxy_pass without proxy_set_header Host), every form would fail.
// The Origin was checked above against the site's own origins (APP_URL's), so Remix is shown that host, and a
// client's own X-Forwarded-Host never reaches it.
app.use((req, _res, next) => {
  req.headers.host = app$.siteHostFor(req.get("origin"), env);
  delete req.headers["x-forwarded-host"];
  next();
});

app.all(
  "*",
  createRequestHandler({
    build,
    mode: build.mode,
    getLoadContext: (req, res) => ({
      cspNonce: res.locals.cspNonce,
      clientIp: req.ip ?? "unknown",
      untilWritable: () => untilWritable(res),
    }),
  }),
);

/**
 * Resolves true once the response's buffer has drained, false once the client has gone: the pace at which a
 * long streamed body (a library video) is read, since Remix's writer does not wait for the client, and goes on
 * reading a body after its socket has failed. The socket is asked, not only the response: a failed write
 * destroys it at once, while the response hears of it an event later, by which time another megabyte is read.
 * @param {express.Response} res
 * @returns {Promise<boolean>}
 */
function untilWritable(res) {
  const gone = () => res.destroyed || !res.socket || res.socket.destroyed;
  if (gone()) return Promise.resolve(false);
  if (!res.writableNeedDrain) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve(!gone());
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

// The last word on any error that reached Express (a malformed URL, a failure in the adapter): a 4xx keeps
// its status, anything else is a 500; the answer never carries a stack or a path, the log gets both.
app.use(
  /** @type {express.ErrorRequestHandler} */ (error, req, res, _next) => {
    const status = Number(error?.status ?? error?.statusCode);
    const clientError = Number.isInteger(status) && status >= 400 && status < 500;
    app$.log(clientError ? "warn" : "error", "request.error", {
      requestId: res.locals.requestId,
      method: req.method,
      path: app$.redactPath(res.locals.path ?? req.path),
      status: clientError ? status : 500,
      error,
    });
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    res.set("Cache-Control", "no-store");
    if (clientError) sendError(req, res, status, status === 400 ? app$.httpErrors.badRequest : app$.httpErrors.failed);
    else sendError(req, res, 500, app$.httpErrors.failed);
  },
);

const server = app.listen(env.port, env.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.port;
  // The address to open: APP_URL, or with it unset the local run's own (its port may have been chosen at start).
  const open = env.appUrlConfigured ? env.appUrl.href : `http://localhost:${port}/`;
  app$.log("info", "server.listening", {
    port,
    appUrl: env.appUrl.href,
    node: process.versions.node,
    message: `Open ${open} in a browser.`,
  });
  // `npm start` on a terminal: the address once more in plain words, not only inside the JSON line.
  if (process.argv.includes("--announce"))
    process.stdout.write(`\nThe site is running. Open ${open} in a browser.\n\n`);
  if (build.mode === "development") broadcastDevReady(build);
});
// Node's default, set here by name: housekeeping takes an upload older than this (and its check) for abandoned.
server.requestTimeout = app$.REQUEST_TIMEOUT_MS;

/**
 * Stop accepting, let requests in flight finish, then close the database.
 * @param {NodeJS.Signals} signal
 */
function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  app$.log("info", "server.stopping", { signal });
  stopHousekeeping();
  stopAlerts();
  void metrics?.stop();
  server.close(async () => {
    // Account e-mails go out in the background; the last requests' must not be dropped.
    await app$.settleAccountMail();
    await app$.closeDatabase();
    app$.log("info", "server.stopped", { signal });
    process.exit(0);
  });
  server.closeIdleConnections?.();
  setTimeout(() => process.exit(1), 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
