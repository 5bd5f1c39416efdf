/** Sessions for the measured requests: a page session as a browser without JavaScript gets one, or an API token. */
import { origin } from "./config";
import { request } from "./measure";

/** Logs in through the page form; returns the Cookie pair of the new session. */
export async function pageSessionCookie(credentials: { email: string; password: string }): Promise<string> {
  const answer = await request("/financing/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin() },
    body: new URLSearchParams(credentials).toString(),
  });
  const cookies = ([] as string[]).concat(answer.headers["set-cookie"] ?? []);
  const session = cookies.map((line) => line.split(";")[0]).find((pair) => pair.startsWith("__session="));
  if (answer.status !== 302 || !session)
    throw new Error(`The login of ${credentials.email} answered ${answer.status} without a session.`);
  return session;
}

/** Logs in through the API; returns the access token for an Authorization: Bearer header. */
export async function apiAccessToken(credentials: { email: string; password: string }): Promise<string> {
  const answer = await request("/api/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(credentials),
  });
  if (answer.status !== 200) throw new Error(`The API login of ${credentials.email} answered ${answer.status}.`);
  return (JSON.parse(answer.body.toString("utf8")) as { accessToken: string }).accessToken;
}
