/**
 * "Sudo mode" as administrators meet it: the "Confirm it's you" page of its own, which sends them back
 * where they came from, and the refusal of an access change without a fresh confirmation. Also the
 * last sign-in that the administrator's pages show.
 */
import { sudoRefusal, sudoState } from "~/http/sudo.server";
import * as loginApi from "~/routes/api.auth.login";
import * as confirmPage from "~/routes/financing.confirm";
import { now, testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { addressSequence, callRoute, type RouteModule } from "../support/api-routes";
import { createSession, createUser } from "../support/factories";
import { useIntegration } from "../support/integration";
import { totpCode } from "../support/totp";

const confirm = confirmPage as unknown as RouteModule;
const PASSWORD = "correct horse battery";
const freshIp = addressSequence("10.21");
const { administrator: makeAdministrator } = useIntegration({ mail: true, clockAt: Date.UTC(2026, 10, 26, 12, 0, 10) });

const administrator = () => makeAdministrator({ password: PASSWORD });

function postConfirm(cookie: string, returnTo: string, fields: Record<string, string>) {
  return callRoute(confirm, {
    ip: freshIp(),
    method: "POST",
    path: `/financing/confirm?${new URLSearchParams({ returnTo })}`,
    body: new URLSearchParams({ intent: "confirm", ...fields }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
  });
}

const reauthenticatedAt = async (userId: string) =>
  (await getDb().selectFrom("sessions").select("reauthenticated_at").where("user_id", "=", userId).executeTakeFirst())
    ?.reauthenticated_at;

describe("the Confirm it's you page", () => {
  it("asks for the password and the code, and sends the administrator back to the page they came from", async () => {
    const admin = await administrator();
    const { cookie } = await createSession(admin.id, { reauthenticated: false });
    const page = await callRoute(confirm, {
      ip: freshIp(),
      path: "/financing/confirm?returnTo=%2Ffinancing%2Finvestors%2Fx",
      headers: { Cookie: cookie },
    });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({
      returnTo: "/financing/investors/x",
      reauthentication: { until: null, asksForCode: true },
    });

    const wrong = await postConfirm(cookie, "/financing/investors/x", { password: PASSWORD, code: "000000" });
    expect(wrong.status).toBe(401);
    expect(await reauthenticatedAt(admin.id)).toBeNull();
    const passwordAlone = await postConfirm(cookie, "/financing/investors/x", { password: PASSWORD });
    expect(passwordAlone.status).toBe(400);
    expect(await reauthenticatedAt(admin.id)).toBeNull();

    const right = await postConfirm(cookie, "/financing/investors/x", {
      password: PASSWORD,
      code: totpCode(admin.secret, now()),
    });
    expect(right.status).toBe(302);
    expect(right.headers.get("Location")).toBe("/financing/investors/x");
    expect(await reauthenticatedAt(admin.id)).toBe(now());
  });

  it("never sends anyone off the portal: another site or a path outside /financing goes to /financing", async () => {
    for (const returnTo of ["https://evil.example/", "//evil.example/financing", "/api/user/get_investors"]) {
      const admin = await administrator();
      const { cookie } = await createSession(admin.id, { reauthenticated: false });
      const right = await postConfirm(cookie, returnTo, { password: PASSWORD, code: totpCode(admin.secret, now()) });
      expect(right.headers.get("Location")).toBe("/financing");
    }
  });
});

describe("an access change without a fresh confirmation", () => {
  it("is refused with 403 and a way to confirm; confirmed, it is open for 10 minutes", () => {
    const at = now();
    expect(sudoRefusal({ reauthenticatedAt: null })).toMatchObject({ status: 403, message: /Confirm it's you first/ });
    expect(sudoRefusal({ reauthenticatedAt: at })).toBeNull();
    expect(sudoState({ reauthenticatedAt: null }, "/financing/admins")).toEqual({
      until: null,
      confirmHref: "/financing/confirm?returnTo=%2Ffinancing%2Fadmins",
    });
    testClock.advance(10 * 60_000);
    expect(sudoRefusal({ reauthenticatedAt: at })).toMatchObject({ status: 403 });
  });
});

describe("the last sign-in", () => {
  it("is written when a sign-in issues a session or tokens, and not for a wrong password", async () => {
    const investor = await createUser({ email: "last.sign.in@example.com", password: PASSWORD });
    const login = (password: string) =>
      callRoute(loginApi as unknown as RouteModule, {
        ip: freshIp(),
        method: "POST",
        path: "/api/auth/login",
        body: JSON.stringify({ email: investor.email, password }),
        headers: { "Content-Type": "application/json" },
      });
    const lastLogin = async () =>
      (await getDb().selectFrom("users").select("last_login_at").where("id", "=", investor.id).executeTakeFirst())
        ?.last_login_at;
    expect((await login("wrong password here")).status).toBe(401);
    expect(await lastLogin()).toBeNull();
    expect((await login(PASSWORD)).status).toBe(200);
    expect(await lastLogin()).toBe(now());
  });
});
