/**
 * What the audit trail's account events add to the metrics. recordAuditEvent hands over every event
 * it has written, so a sign-in, a failed step or a sign-up is counted exactly where it is recorded.
 */
import { AUTH_METHODS, type AuthMethod } from "~/server/auth-method.server";
import { countLoginFailure, countSignIn, countSignUp } from "~/server/metrics.server";

type Details = Record<string, unknown> | string | null | undefined;

export function countAccountEvent(action: string, details: Details) {
  switch (action) {
    case "login.succeeded": {
      const method = detail(details, "method");
      if (isAuthMethod(method)) countSignIn(method);
      return;
    }
    case "login.failed":
      countLoginFailure(detail(details, "reason") === "unknown_email" ? "unknown_email" : "wrong_password");
      return;
    case "account.locked":
      countLoginFailure("locked");
      return;
    case "mfa.failed":
      countLoginFailure("second_factor_failed");
      return;
    case "mfa.locked":
      countLoginFailure("second_factor_locked");
      return;
    case "account.registered":
      countSignUp();
      return;
  }
}

function detail(details: Details, name: string): unknown {
  return details && typeof details === "object" ? details[name] : undefined;
}

function isAuthMethod(value: unknown): value is AuthMethod {
  return (AUTH_METHODS as readonly unknown[]).includes(value);
}
