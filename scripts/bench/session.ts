/** Sessions for the measured requests: a page session as a browser without JavaScript gets one, or an API token. */
import { unusedTotpCode } from "../../tests/support/totp";
import { origin } from "./config";
import { request } from "./measure";

type Credentials = { email: string; password: string; totpSecret?: string };

const form = (fields: Record<string, string>, cookie?: string) => ({
  method: "POST",
  headers: {
    "Content-Type": "application/x-www-form-urlencoded",
    Origin: origin(),
    ...(cookie ? { Cookie: cookie } : {}),
  },
  body: new URLSearchParams(fields).toString(),
});

function cookieNamed(answer: Awaited<ReturnType<typeof request>>, name: string): string | undefined {
  const cookies = ([] as string[]).concat(answer.headers["set-cookie"] ?? []);
  return cookies.map((line) => line.split(";")[0]).find((pair) => pair.startsWith(`${name}=`));
}

/** Logs in through the page form, with the code step when the account has a second factor; returns the Cookie pair of the new session. */
export async function pageSessionCookie({ email, password, totpSecret }: Credentials): Promise<string> {
  let answer = await request("/financing/login", form({ email, password }));
  const step = cookieNamed(answer, "__login_step");
  if (step && totpSecret) {
    answer = await request("/financing/login/code", form({ code: await unusedTotpCode(totpSecret) }, step));
  }
  const session = cookieNamed(answer, "__session");
  if (answer.status !== 302 || !session)
    throw new Error(`The login of ${email} answered ${answer.status} without a session.`);
  return session;
}

/** Logs in through the API; returns the access token for an Authorization: Bearer header. */
export async function apiAccessToken({ email, password, totpSecret }: Credentials): Promise<string> {
  const code = totpSecret ? await unusedTotpCode(totpSecret) : undefined;
  const answer = await request("/api/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password, code }),
  });
  if (answer.status !== 200) throw new Error(`The API login of ${email} answered ${answer.status}.`);
  return (JSON.parse(answer.body.toString("utf8")) as { accessToken: string }).accessToken;
}
