/**
 * Where the metrics are served, and what each request adds to them (docs/operations.md,
 * docs/decisions/0020). They are never public: a listener of their own (METRICS_PORT, on loopback
 * unless METRICS_HOST says otherwise), or /metrics on the site's own port for a scrape that presents
 * METRICS_TOKEN as a bearer token. Without the token there, /metrics is any unknown address: the
 * request goes on to Remix, which answers 404. A scrape answered is neither logged nor counted.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { httpErrors } from "~/content/http-errors";
import { passwordWork } from "~/models/account/password.server";
import { startAuditChainWatch } from "~/models/audit/audit-chain-watch.server";
import { countUnmailedContactMessages } from "~/models/contact/contact.server";
import { getEnv } from "~/server/env.server";
import { log } from "~/server/log.server";
import { collectProcessMetrics, observeHttpRequest, readAtScrape, renderMetrics } from "~/server/metrics.server";
import { readiness } from "~/server/readiness.server";
import { routeLabeller, UNMATCHED_LABEL, type ManifestRoute } from "./route-label.server";

export const METRICS_PATH = "/metrics";

type PublicResponse = ServerResponse & { locals: { path?: string } };

export type Metrics = {
  /**
   * Middleware for the site's listener, placed before the request log: a scrape with the token is answered
   * here. Null without METRICS_TOKEN: /metrics is then an unknown address, and no request pays for a check.
   */
  publicEndpoint: ((req: IncomingMessage, res: PublicResponse, next: () => void) => void) | null;
  /** One answered request of the site: its route (never its path), method, status and time. */
  observeRequest: (method: string, path: string, malformedPath: boolean, status: number, seconds: number) => void;
  /** Closes the metrics' listener and stops the audit chain's checks. */
  stop: () => Promise<void>;
};

/**
 * Starts what the metrics need in the server (process series, the audit chain's checks, the readers
 * of the gauges taken at each scrape, the listener) for `build`'s routes; `publicDir` is the folder
 * server.js serves files from.
 */
export function startMetrics(
  build: { routes: Record<string, ManifestRoute | undefined>; publicPath: string },
  publicDir: string,
): Metrics {
  const { metrics: settings } = getEnv();
  const tokens = settings.tokens.map(digest);
  const presentsToken = (authorization: string | undefined) => {
    const presented = /^Bearer (.+)$/i.exec(authorization ?? "")?.[1]?.trim();
    if (!presented) return false;
    const candidate = digest(presented);
    // Every token is compared, the same way, whichever matches.
    return tokens.reduce((found, token) => timingSafeEqual(candidate, token) || found, false);
  };

  collectProcessMetrics();
  readAtScrape({
    unmailedContactMessages: countUnmailedContactMessages,
    ready: async () => (await readiness()).ready,
    passwordWork,
  });
  const stopChainWatch = startAuditChainWatch();

  const staticRoots = [build.publicPath.split("/").filter(Boolean)[0], ...fs.readdirSync(publicDir)].filter(Boolean);
  const labelOf = routeLabeller(build.routes, staticRoots);

  const listener =
    settings.port === undefined ? null : listen(settings.port, settings.host, tokens.length > 0, presentsToken);

  return {
    publicEndpoint:
      tokens.length === 0
        ? null
        : (req, res, next) => {
            if (res.locals.path !== METRICS_PATH || !isRead(req)) return next();
            if (!presentsToken(req.headers.authorization)) return next();
            void answerScrape(req, res);
          },
    observeRequest(method, path, malformedPath, status, seconds) {
      observeHttpRequest(malformedPath ? UNMATCHED_LABEL : labelOf(path), method, status, seconds);
    },
    async stop() {
      stopChainWatch();
      if (!listener) return;
      await new Promise((resolve) => {
        listener.close(resolve);
        listener.closeAllConnections();
      });
    },
  };
}

/** The metrics' own listener: GET (or HEAD) /metrics, with the bearer token when one is set; nothing else. */
function listen(
  port: number,
  host: string,
  tokenRequired: boolean,
  presentsToken: (authorization: string | undefined) => boolean,
): http.Server {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== METRICS_PATH || !isRead(req)) return answerText(res, 404, httpErrors.metrics.notFound);
    if (tokenRequired && !presentsToken(req.headers.authorization)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      return answerText(res, 401, httpErrors.metrics.unauthorized);
    }
    void answerScrape(req, res);
  });
  // A port already taken ends the start, as the site's own port does (process.fatal in the log).
  server.listen(port, host, () => {
    log("info", "metrics.listening", { host, port: (server.address() as AddressInfo).port });
  });
  return server;
}

async function answerScrape(req: IncomingMessage, res: ServerResponse) {
  try {
    const { contentType, text } = await renderMetrics();
    res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : text);
  } catch (error) {
    log("error", "metrics.failed", { error });
    if (!res.headersSent) answerText(res, 500, httpErrors.failed);
  }
}

function answerText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
  res.end(`${text}\n`);
}

function isRead(req: IncomingMessage) {
  return req.method === "GET" || req.method === "HEAD";
}

/** Tokens are compared as SHA-256 digests: equal lengths for timingSafeEqual, whatever was presented. */
function digest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}
