import type { Transform } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { onDemandBlocksLoaded } from "~/components/on-demand";
import { batchedPerTurn } from "~/utils/batched-stream.server";
import { NonceProvider } from "~/utils/nonce";
import { log } from "~/utils/log.server";
import { isAnonymousPageRequest, storePage } from "~/utils/page-cache.server";

// server.js reaches these through the build (build.entry.module), so the HTTP
// layer runs the same bundled code as the routes.
export { getEnv } from "~/utils/env.server";
export { migrateDatabase, closeDatabase } from "~/utils/db.server";
export { securityHeaders, isCrossOriginWrite, corsHeaders, bodyLimitFor } from "~/utils/security.server";
export { log, redactPath } from "~/utils/log.server";
export { withDatabaseUnavailableAnswers } from "~/utils/database-unavailable.server";
export { settleAccountMail } from "~/models/account-mail.server";
export { cachedPage } from "~/utils/page-cache.server";

const ABORT_DELAY_MS = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext
) {
  // Blocks that load on demand in the browser are rendered whole here, so their code must be in.
  await onDemandBlocksLoaded();
  const nonce = loadContext.cspNonce;
  const storable = isStorablePage(request, responseStatusCode, responseHeaders, remixContext);
  // Bots, no-JavaScript clients and pages kept for the cache get the whole document at once.
  const waitForAll = storable || isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = batchedPerTurn();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          if (storable) keepForCache(body, request, nonce, responseHeaders, () => responseStatusCode);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            })
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log("error", "render.failed", { error });
        },
      }
    );
    setTimeout(abort, ABORT_DELAY_MS);
  });
}

type PageCacheHandle = { anonymousPageCache?: boolean };

/** A page of the public frame, asked for anonymously, answered 200 without a cookie: the same for every visitor. */
function isStorablePage(request: Request, status: number, headers: Headers, context: EntryContext) {
  const url = new URL(request.url);
  return (
    request.method === "GET" &&
    isAnonymousPageRequest({
      method: request.method,
      url: url.pathname + url.search,
      cookie: request.headers.get("Cookie"),
    }) &&
    status === 200 &&
    !headers.has("Set-Cookie") &&
    context.staticHandlerContext.matches.some(
      (match) => (context.routeModules[match.route.id]?.handle as PageCacheHandle | undefined)?.anonymousPageCache
    )
  );
}

/** Copies the streamed document and stores it once it is whole, unless rendering failed on the way. */
function keepForCache(body: Transform, request: Request, nonce: string, headers: Headers, status: () => number) {
  const chunks: Buffer[] = [];
  body.on("data", (chunk: Buffer) => chunks.push(chunk));
  body.on("end", () => {
    if (status() !== 200) return;
    storePage(new URL(request.url).pathname, Buffer.concat(chunks).toString("utf8"), nonce, headers);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted || isRouteErrorResponse(error)) return;
  log("error", "request.failed", { method: request.method, path: new URL(request.url).pathname, error });
}
