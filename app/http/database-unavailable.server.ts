import type { ServerBuild } from "@remix-run/node";
import { databaseUnavailable } from "~/content/unavailable";
import { decodedPathOf } from "~/http/request-path.server";
import { isApiPath } from "~/http/security.server";
import { log, redactPath } from "~/server/log.server";
import { isUnavailableError } from "~/server/sql-dialect.server";

/** The 503: JSON `{ message }` for the API, the error page (root ErrorBoundary) for everything else. */
export function databaseUnavailableResponse(request: Request): Response {
  const headers = { "Retry-After": String(databaseUnavailable.retryAfterSeconds), "Cache-Control": "no-store" };
  if (isApiPath(decodedPathOf(request))) {
    return Response.json({ message: databaseUnavailable.message }, { status: 503, headers });
  }
  return new Response(databaseUnavailable.message, {
    status: 503,
    statusText: "Service Unavailable",
    headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
  });
}

type Handler<Args extends { request: Request }> = (args: Args) => unknown;

/** A loader or action whose "database unavailable" errors (busy, full, restarting, out of reach) become the thrown 503. */
export function answeringUnavailable<Args extends { request: Request }>(handler: Handler<Args>): Handler<Args> {
  return async (args) => {
    try {
      return await handler(args);
    } catch (error) {
      // Busy past its timeout, full, restarting or out of reach (app/server/sql-dialect.server.ts): not the
      // request's fault and not lasting, so 503 with Retry-After instead of a 500; the next request tries again.
      if (!isUnavailableError(error)) throw error;
      const { method } = args.request;
      const path = redactPath(decodedPathOf(args.request));
      // A lost connection has no code, only its (fixed, data-free) message.
      const { code, message } = error as { code?: string; message?: string };
      log("warn", "db.unavailable", { code: code ?? message, method, path });
      throw databaseUnavailableResponse(args.request);
    }
  };
}

/** The build server.js serves: every route's loader and action wrapped by answeringUnavailable. */
export function withDatabaseUnavailableAnswers(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const module = { ...route.module };
      if (module.loader) module.loader = answeringUnavailable(module.loader) as typeof module.loader;
      if (module.action) module.action = answeringUnavailable(module.action) as typeof module.action;
      return [id, { ...route, module }];
    }),
  );
  return { ...build, routes };
}
