/**
 * The API's refresh cookie, named here so that the edge that sets it and the OpenAPI document that
 * describes it say the same.
 */
export const REFRESH_COOKIE_NAME = "__refresh";
export const REFRESH_COOKIE_PATH = "/api/auth";
