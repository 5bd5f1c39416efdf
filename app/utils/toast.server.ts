import { createCookieSessionStorage } from "@remix-run/node";
import { createToastUtilsWithCustomSession } from "remix-toast";
import { getEnv } from "./env.server";

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
export const jsonWithSuccess: ReturnType<typeof toastUtils>["jsonWithSuccess"] = (...args) =>
  toastUtils().jsonWithSuccess(...args);
export const jsonWithError: ReturnType<typeof toastUtils>["jsonWithError"] = (...args) =>
  toastUtils().jsonWithError(...args);
