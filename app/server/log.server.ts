import { currentRequestId } from "./request-context.server";

/**
 * One JSON line per event. Callers pass only what is safe to keep: never a
 * password, token, hash or session id (tests scan the log for them). A line
 * written while a request is served carries that request's id.
 */
type Level = "debug" | "info" | "warn" | "error";

export function log(level: Level, event: string, fields: Record<string, unknown> = {}) {
  if (level === "debug" && process.env.LOG_LEVEL !== "debug") return;
  const requestId = currentRequestId();
  const line = JSON.stringify(
    { time: new Date().toISOString(), level, event, ...(requestId && { requestId }), ...fields },
    errorReplacer,
  );
  if (level === "error" || level === "warn") process.stderr.write(line + "\n");
  else process.stdout.write(line + "\n");
}

function errorReplacer(_key: string, value: unknown) {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/** What follows a path that carries a secret or an e-mail address is not logged. */
const SECRET_SEGMENT =
  /^(\/auth\/verify\/|\/api\/auth\/verify\/|\/financing\/resetpassword\/|\/financing\/invitation\/|\/api\/auth\/forgot-password\/|\/alerts\/).+/i;

/**
 * `pathname` as server.js decodes it (request-path.server.ts). An encoded slash counts as a slash here:
 * no route serves `/auth%2Fverify%2F<token>`, but the token in it is a secret all the same.
 */
export function redactPath(pathname: string) {
  return pathname.replace(/%2F/gi, "/").replace(SECRET_SEGMENT, "$1[redacted]");
}
