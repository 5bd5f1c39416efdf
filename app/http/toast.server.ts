import { createCookieSessionStorage } from "@remix-run/node";
import { createToastUtilsWithCustomSession } from "remix-toast";
import { getEnv } from "~/server/env.server";

/**
 * remix-toast 1.2.2 does not sign its own cookie, so it is given the app's
 * signed cookie storage (a one-time flash message, not the login session).
 */
let utils: ReturnType<typeof createToastUtilsWithCustomSession> | undefined;

function toastUtils() {
  if (!utils) {
    const env = getEnv();
    const storage = createCookieSessionStorage({
      cookie: {
        name: "__toast",
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: env.secureCookies,
        secrets: env.sessionSecrets,
      },
    });
    utils = createToastUtilsWithCustomSession(storage);
  }
  return utils;
}

export const getToast = (request: Request) => toastUtils().getToast(request);
export const redirectWithSuccess: ReturnType<typeof toastUtils>["redirectWithSuccess"] = (...args) =>
  toastUtils().redirectWithSuccess(...args);
export const redirectWithError: ReturnType<typeof toastUtils>["redirectWithError"] = (...args) =>
  toastUtils().redirectWithError(...args);
export const redirectWithInfo: ReturnType<typeof toastUtils>["redirectWithInfo"] = (...args) =>
  toastUtils().redirectWithInfo(...args);

export type ToastOption = string | { message: string; description?: string; type?: "success" | "error" | "info" };

/** A redirect carrying one notice: a bare string is a success. */
export function redirectWithToast(to: string, toast: ToastOption, init?: ResponseInit) {
  const { type = "success", ...message } = typeof toast === "string" ? { message: toast } : toast;
  const send = type === "success" ? redirectWithSuccess : type === "error" ? redirectWithError : redirectWithInfo;
  return send(to, message, init);
}
