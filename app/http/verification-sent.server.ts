import { createCookie, type Cookie } from "@remix-run/node";
import { ONE_TIME_TOKEN_TTL_MS } from "~/models/account/one-time-token.server";
import { getEnv } from "~/server/env.server";

/**
 * After sign-up, the address the verification link went to, so that the page the visitor lands on
 * can keep saying so ("we sent a link to …") for as long as the link is valid, reloads included: a
 * signed, HttpOnly cookie sent only to that page. It holds what the visitor typed a moment ago and
 * nothing the server knows, so it tells nobody whether the address has an account.
 */
let cookie: Cookie | undefined;

function sentCookie(): Cookie {
  if (!cookie) {
    const env = getEnv();
    cookie = createCookie("__verification_sent", {
      path: "/financing/verify-email",
      httpOnly: true,
      sameSite: "lax",
      secure: env.secureCookies,
      secrets: env.sessionSecrets,
      maxAge: ONE_TIME_TOKEN_TTL_MS.verify / 1000,
    });
  }
  return cookie;
}

/** The Set-Cookie value that remembers the address for the verify-email page. */
export function rememberVerificationSent(email: string): Promise<string> {
  return sentCookie().serialize(email);
}

/** The address a verification link was sent to from this browser, if the page should say so. */
export async function verificationSentTo(request: Request): Promise<string | null> {
  const value: unknown = await sentCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}
