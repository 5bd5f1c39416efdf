import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { onDemandBlocksLoaded } from "~/components/on-demand";
import { CurrentYearProvider } from "~/hooks/current-year";
import { NonceProvider } from "~/hooks/nonce";
import { decodedPathOf } from "~/http/request-path.server";
import { textBytes } from "~/http/text-bytes.server";
import { currentYear } from "~/server/clock.server";
import { log, redactPath } from "~/server/log.server";
import { isAnonymousPageRequest, storePage } from "~/server/page-cache.server";
import { renderDocument } from "~/server/render-document.server";

// server.js reaches these through the build (build.entry.module), so the HTTP
// layer runs the same bundled code as the routes.
export { getEnv, productionRulesApply } from "~/server/env.server";
export { productionConfigurationProblems, placeholderWarnings } from "~/server/production-rules.server";
export { readiness } from "~/server/readiness.server";
export { runWithRequestId, requestIdFor } from "~/server/request-context.server";
export { startAlerts } from "~/models/alerts/alert-schedule.server";
export { serverTimingHeader } from "~/server/server-timing.server";
export { startHousekeeping } from "~/models/housekeeping.server";
export { migrateDatabase, closeDatabase } from "~/server/db.server";
export { REQUEST_TIMEOUT_MS } from "~/server/blob-store.server";
export {
  securityHeaders,
  isApiPath,
  isCrossOriginWrite,
  corsHeaders,
  bodyLimitFor,
  siteHostFor,
} from "~/http/security.server";
export { decodeRequestPath } from "~/http/request-path.server";
export { hasControlCharacter, queryHasControlCharacter } from "~/http/control-characters.server";
export { log, redactPath } from "~/server/log.server";
export { errorPageHtml } from "~/http/error-page.server";
export { httpErrors } from "~/content/http-errors";
export { withDatabaseUnavailableAnswers } from "~/http/database-unavailable.server";
export { settleAccountMail } from "~/models/account/account-mail.server";
export { cachedPage } from "~/server/page-cache.server";
export { copyRefusal, enterCopyGate } from "~/http/copy-gate.server";
export { encodePage } from "~/http/page-encoding.server";
export { startMetrics } from "~/http/metrics-endpoint.server";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Blocks that load on demand in the browser are rendered whole here, so their code must be in.
  await onDemandBlocksLoaded();
  const nonce = loadContext.cspNonce;
  const url = new URL(request.url);
  const { html, complete } = renderDocument(
    <NonceProvider value={nonce}>
      <CurrentYearProvider value={currentYear()}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </CurrentYearProvider>
    </NonceProvider>,
  );
  let status = responseStatusCode;
  if (!complete) {
    status = 500;
    log("error", "render.failed", {
      path: redactPath(decodedPathOf(request)),
      reason: "a Suspense boundary did not render",
    });
  }
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  if (isStorablePage(request, url, status, responseHeaders, remixContext)) {
    storePage(url.pathname, html, nonce, responseHeaders);
  }
  return new Response(textBytes(html), { headers: responseHeaders, status });
}

type PageCacheHandle = { anonymousPageCache?: boolean };

/** A page of the public frame, asked for anonymously, answered 200 without a cookie: the same for every visitor. */
function isStorablePage(request: Request, url: URL, status: number, headers: Headers, context: EntryContext) {
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
      (match) => (context.routeModules[match.route.id]?.handle as PageCacheHandle | undefined)?.anonymousPageCache,
    )
  );
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted || isRouteErrorResponse(error)) return;
  log("error", "request.failed", { method: request.method, path: redactPath(decodedPathOf(request)), error });
}
