import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/utils/nonce";
import { log } from "~/utils/log.server";

// server.js reaches these through the build (build.entry.module), so the HTTP
// layer runs the same bundled code as the routes.
export { getEnv } from "~/utils/env.server";
export { migrateDatabase, closeDatabase } from "~/utils/db.server";
export {
  securityHeaders,
  isCrossOriginWrite,
  corsHeaders,
  bodyLimitFor,
} from "~/utils/security.server";
export { log, redactPath } from "~/utils/log.server";
export { withDatabaseUnavailableAnswers } from "~/utils/database-unavailable.server";
export { settleAccountMail } from "~/models/account-mail.server";

const ABORT_DELAY_MS = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // Bots and no-JavaScript clients get the whole document at once.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
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
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
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
      },
    );
    setTimeout(abort, ABORT_DELAY_MS);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted || isRouteErrorResponse(error)) return;
  log("error", "request.failed", { method: request.method, path: new URL(request.url).pathname, error });
}
