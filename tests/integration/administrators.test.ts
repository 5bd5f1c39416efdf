/**
 * Administrators managed in the app (/financing/admins and the invitation link): the list, an
 * invitation followed to an administrator who must set up a second factor, revoking, removing
 * (never the last: not even two removals at once) and resetting a second factor. Every action needs
 * "sudo mode", is audited and e-mails the person affected; bad input changes nothing and mails no one.
 * A real database file and a real SMTP catcher.
 */
import { ENROL_PATH, requireUser } from "~/http/auth.server";
import { settleAccountMail } from "~/models/account/account-mail.server";
import { getUserById } from "~/models/account/user.server";
import { INVITATION_TTL_MS } from "~/models/administrators/admin-invitation.server";
import { createOrPromoteAdministrator } from "~/models/administrators/create-admin.server";
import { replaceRecoveryCodes } from "~/models/second-factor/recovery-code.server";
import { stepAfterPassword } from "~/models/second-factor/second-factor.server";
import * as adminsPage from "~/routes/financing.admins/route";
import * as invitationRoute from "~/routes/financing.invitation.$token";
import { now, testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { addressSequence, callRoute, cookiesFrom, type RouteModule } from "../support/api-routes";
import { addPasskey, accessTokenFor, createSession, createUser, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";
import { tokenIn } from "../support/mail-links";

const admins = adminsPage as unknown as RouteModule;
const invitation = invitationRoute as unknown as RouteModule;
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a long new admin password";
const freshIp = addressSequence("10.29");
let made = 0;
/** The audit trail is append-only: each test reads only the rows after this one. */
let auditStart = 0;

const { smtp, administrator: makeAdministrator } = useIntegration({
  mail: true,
  clockAt: Date.UTC(2026, 10, 26, 12, 0, 10),
});
beforeEach(async () => {
  // Each test starts with no administrator, so "the last administrator" means the test's own.
  await getDb().deleteFrom("users").where("role", "=", "administrator").execute();
  await clearMail();
  const last = await getDb()
    .selectFrom("audit_events")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  auditStart = Number(last?.id ?? 0);
});

async function administrator(fields: { created_via?: "create-admin" | "invitation" | null } = {}) {
  made += 1;
  const user = await makeAdministrator();
  if (fields.created_via !== undefined) {
    await getDb().updateTable("users").set({ created_via: fields.created_via }).where("id", "=", user.id).execute();
  }
  return user;
}

/** An administrator and the Cookie of their session: confirmed ("sudo") unless told otherwise. */
async function signedIn({ sudo = true } = {}) {
  const admin = await administrator();
  const { cookie } = await createSession(admin.id, { reauthenticated: sudo });
  return { admin, cookie };
}

function post(cookie: string, fields: Record<string, string>) {
  return callRoute(admins, {
    ip: freshIp(),
    method: "POST",
    path: "/financing/admins",
    body: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
  });
}

function openInvitation(token: string) {
  return callRoute(invitation, { ip: freshIp(), path: `/financing/invitation/${token}`, params: { token } });
}

function acceptInvitation(token: string, password = NEW_PASSWORD, confirmPassword = password) {
  return callRoute(invitation, {
    ip: freshIp(),
    method: "POST",
    path: `/financing/invitation/${token}`,
    params: { token },
    body: new URLSearchParams({ password, confirmPassword }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
}

async function clearMail() {
  await settleAccountMail();
  smtp.messages.length = 0;
}

async function mailsTo(address: string) {
  await settleAccountMail();
  return smtp.messages.filter((mail) => mail.to.includes(address));
}

async function auditRows(action: string) {
  return getDb()
    .selectFrom("audit_events")
    .select(["actor_email", "target_email", "target_id", "details"])
    .where("action", "=", action)
    .where("id", ">", auditStart)
    .orderBy("id")
    .execute();
}

const invitations = () => getDb().selectFrom("admin_invitations").selectAll().execute();

/** Invites `email` as `cookie`'s administrator and returns the token the e-mail carries. */
async function invite(cookie: string, email: string) {
  const response = await post(cookie, { intent: "invite", email });
  expect(response.status).toBe(302);
  const mail = await smtp.mailTo(email, /invited to administer/);
  return tokenIn(mail, "/financing/invitation/");
}

describe("the list", () => {
  it("shows each administrator's second factor, last sign-in and maker, and the pending invitations", async () => {
    const { admin, cookie } = await signedIn();
    const fromServer = await administrator({ created_via: "create-admin" });
    await addPasskey(fromServer.id, { id: `passkey-${made}`, createdAt: Date.now() });
    await getDb()
      .updateTable("users")
      .set({ last_login_at: Date.UTC(2026, 10, 1) })
      .where("id", "=", fromServer.id)
      .execute();
    await invite(cookie, "pending.invitee@example.com");

    const page = await callRoute(admins, { path: "/financing/admins", headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const data = (await page.json()) as {
      administrators: { email: string; secondFactor: unknown; lastSignIn: string | null; createdBy: unknown }[];
      invitations: { email: string; invitedBy: string; expiresAt: string }[];
      sudo: { until: string | null };
    };
    expect(data.administrators).toEqual([
      expect.objectContaining({
        email: admin.email,
        secondFactor: { totp: true, passkeys: 0 },
        lastSignIn: new Date(now()).toISOString(),
        createdBy: { via: null },
      }),
      expect.objectContaining({
        email: fromServer.email,
        secondFactor: { totp: true, passkeys: 1 },
        lastSignIn: "2026-11-01T00:00:00.000Z",
        createdBy: { via: "create-admin" },
      }),
    ]);
    expect(data.invitations).toEqual([
      {
        id: expect.any(String),
        email: "pending.invitee@example.com",
        invitedBy: admin.email,
        expiresAt: new Date(now() + 72 * 3_600_000).toISOString(),
      },
    ]);
    expect(data.sudo.until).not.toBeNull();
  });

  it("offers no Remove on the only administrator's card, and offers it once there are two", async () => {
    const { cookie } = await signedIn();
    const offered = async () => {
      const page = await callRoute(admins, { path: "/financing/admins", headers: { Cookie: cookie } });
      return ((await page.json()) as { removalOffered: boolean }).removalOffered;
    };
    expect(await offered()).toBe(false);
    await administrator();
    expect(await offered()).toBe(true);
  });

  it("is for administrators only", async () => {
    const investor = await createUser({ email: "curious.investor@example.com" });
    const { cookie } = await createSession(investor.id);
    expect((await callRoute(admins, { path: "/financing/admins", headers: { Cookie: cookie } })).status).toBe(403);
    expect((await post(cookie, { intent: "invite", email: "x@example.com" })).status).toBe(403);
    expect(await invitations()).toEqual([]);
  });

  it("marks create-admin's administrators as made by the server's command", async () => {
    const { user } = await createOrPromoteAdministrator({ email: "from.server@example.com", password: PASSWORD });
    expect((await userRow(user.id))?.created_via).toBe("create-admin");
  });
});

describe("an invitation", () => {
  it("is mailed as a 72-hour link whose token only the e-mail holds, and is audited", async () => {
    const { admin, cookie } = await signedIn();
    const response = await post(cookie, { intent: "invite", email: "  New.Admin@Example.com " });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/financing/admins");
    const mail = await smtp.mailTo("new.admin@example.com", /invited to administer/);
    expect(mail.text).toContain(admin.email);
    const token = tokenIn(mail, "/financing/invitation/");
    const [row] = await invitations();
    expect(row).toMatchObject({ email: "new.admin@example.com", invited_by: admin.id });
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(INVITATION_TTL_MS);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(await auditRows("admin.invited")).toEqual([
      expect.objectContaining({ actor_email: admin.email, target_email: "new.admin@example.com" }),
    ]);
  });

  it("followed, makes a verified administrator made by the inviter, who must set up a second factor first", async () => {
    const { admin, cookie } = await signedIn();
    const token = await invite(cookie, "invitee@example.com");

    const form = await openInvitation(token);
    expect(form.status).toBe(200);
    expect(await form.json()).toEqual({ screen: "form", email: "invitee@example.com" });

    const weak = await acceptInvitation(token, "short");
    expect(weak.status).toBe(400);
    const mismatch = await acceptInvitation(token, NEW_PASSWORD, "something else entirely");
    expect(mismatch.status).toBe(400);
    expect(await getDb().selectFrom("users").select("id").where("email", "=", "invitee@example.com").execute()).toEqual(
      [],
    );

    const accepted = await acceptInvitation(token);
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("Location")).toBe(ENROL_PATH);
    const user = await getDb()
      .selectFrom("users")
      .selectAll()
      .where("email", "=", "invitee@example.com")
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: "administrator", created_by: admin.id, created_via: "invitation" });
    expect(user.email_verified_at).not.toBeNull();
    expect(await invitations()).toEqual([]);
    expect(await auditRows("admin.invitation_accepted")).toEqual([
      expect.objectContaining({
        target_email: "invitee@example.com",
        details: JSON.stringify({ invitedBy: admin.email }),
      }),
    ]);

    // The new session can do nothing but set up the second factor.
    const session = cookiesFrom(accepted);
    const request = (path: string) => new Request(`http://localhost:3000${path}`, { headers: { Cookie: session } });
    const refused = (await requireUser(request("/financing")).catch((answer: Response) => answer)) as Response;
    expect(refused.headers.get("Location")).toBe(ENROL_PATH);
    expect((await requireUser(request(ENROL_PATH), { enrolling: true })).email).toBe("invitee@example.com");
    expect(await stepAfterPassword((await getUserById(user.id))!)).toBe("enrol");

    // The list names the inviter as the maker.
    const list = (await (
      await callRoute(admins, { path: "/financing/admins", headers: { Cookie: cookie } })
    ).json()) as {
      administrators: { email: string; createdBy: unknown }[];
    };
    expect(list.administrators.find((entry) => entry.email === "invitee@example.com")?.createdBy).toEqual({
      via: "invitation",
      email: admin.email,
    });

    // Used once, the link opens nothing.
    expect((await openInvitation(token)).status).toBe(410);
    expect((await acceptInvitation(token)).status).toBe(410);
  });

  it("again to the same address replaces the earlier link", async () => {
    const { cookie } = await signedIn();
    const first = await invite(cookie, "twice@example.com");
    await clearMail();
    const second = await invite(cookie, "twice@example.com");
    expect(second).not.toBe(first);
    expect(await invitations()).toHaveLength(1);
    expect((await openInvitation(first)).status).toBe(410);
    expect((await openInvitation(second)).status).toBe(200);
  });

  it("expires after 72 hours", async () => {
    const { cookie } = await signedIn();
    const token = await invite(cookie, "late@example.com");
    testClock.advance(INVITATION_TTL_MS + 1000);
    expect((await openInvitation(token)).status).toBe(410);
    expect((await acceptInvitation(token)).status).toBe(410);
    expect(await getDb().selectFrom("users").select("id").where("email", "=", "late@example.com").execute()).toEqual(
      [],
    );
  });

  it("with a made-up or malformed token is refused with 410", async () => {
    expect((await openInvitation("x".repeat(43))).status).toBe(410);
    expect((await openInvitation("not-a-token")).status).toBe(410);
    expect((await acceptInvitation("not-a-token")).status).toBe(410);
  });

  it("whose address was registered meanwhile is refused with 409, and makes nothing", async () => {
    const { cookie } = await signedIn();
    const token = await invite(cookie, "raced@example.com");
    const investor = await createUser({ email: "raced@example.com" });
    const refused = await acceptInvitation(token);
    expect(refused.status).toBe(409);
    expect((await userRow(investor.id))?.role).toBe("investor");
  });

  describe("is refused, storing and mailing nothing", () => {
    async function refusedInvite(cookie: string, email: string) {
      await clearMail();
      const response = await post(cookie, { intent: "invite", email });
      expect(await invitations()).toEqual([]);
      expect(await mailsTo(email.trim().toLowerCase())).toEqual([]);
      expect(await auditRows("admin.invited")).toEqual([]);
      return response;
    }

    it("to an administrator's address (409)", async () => {
      const { admin, cookie } = await signedIn();
      const response = await refusedInvite(cookie, admin.email);
      expect(response.status).toBe(409);
      expect(JSON.stringify(await response.json())).toMatch(/already belongs to an administrator/);
    });

    it("to an investor's address (409), saying why", async () => {
      const { cookie } = await signedIn();
      const investor = await createUser({ email: "an.investor@example.com" });
      const response = await refusedInvite(cookie, investor.email);
      expect(response.status).toBe(409);
      expect(JSON.stringify(await response.json())).toMatch(/belongs to an investor account/);
      expect((await userRow(investor.id))?.role).toBe("investor");
    });

    it("to a malformed address (400)", async () => {
      const { cookie } = await signedIn();
      for (const email of ["not an address", "", "a@b@example.com"]) {
        expect((await refusedInvite(cookie, email)).status).toBe(400);
      }
    });

    it("without a fresh confirmation (403, with the way to confirm)", async () => {
      const { cookie } = await signedIn({ sudo: false });
      const response = await refusedInvite(cookie, "no.sudo@example.com");
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({
        message: expect.stringMatching(/Confirm it's you first/),
        confirmHref: "/financing/confirm?returnTo=%2Ffinancing%2Fadmins",
      });
    });

    it("for an unknown intent (400)", async () => {
      const { cookie } = await signedIn();
      expect((await post(cookie, { intent: "promote", id: "x" })).status).toBe(400);
      expect((await post(cookie, { email: "x@example.com" })).status).toBe(400);
    });
  });
});

describe("revoking an invitation", () => {
  it("kills its link, tells the invitee, and is audited", async () => {
    const { admin, cookie } = await signedIn();
    const token = await invite(cookie, "revoked@example.com");
    const [row] = await invitations();
    const response = await post(cookie, { intent: "revoke", id: row.id });
    expect(response.status).toBe(302);
    expect(await invitations()).toEqual([]);
    expect((await openInvitation(token)).status).toBe(410);
    expect((await acceptInvitation(token)).status).toBe(410);
    await smtp.mailTo("revoked@example.com", "Your invitation was withdrawn");
    expect(await auditRows("admin.invitation_revoked")).toEqual([
      expect.objectContaining({ actor_email: admin.email, target_email: "revoked@example.com" }),
    ]);
  });

  it("is refused without a fresh confirmation (403) or for an unknown id (404)", async () => {
    const { cookie } = await signedIn();
    await invite(cookie, "kept@example.com");
    const [row] = await invitations();
    const { cookie: stale } = await signedIn({ sudo: false });
    expect((await post(stale, { intent: "revoke", id: row.id })).status).toBe(403);
    expect((await post(cookie, { intent: "revoke", id: "no-such-invitation" })).status).toBe(404);
    expect((await post(cookie, { intent: "revoke" })).status).toBe(400);
    expect(await invitations()).toHaveLength(1);
    expect(await mailsTo("kept@example.com")).toHaveLength(1);
  });
});

describe("removing an administrator", () => {
  it("deletes the account, ending its sessions and API tokens, tells them, and is audited", async () => {
    const { admin, cookie } = await signedIn();
    const other = await administrator();
    await createSession(other.id);
    await accessTokenFor(other.id);
    const response = await post(cookie, { intent: "remove", id: other.id, confirm: "remove" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/financing/admins");
    expect(await userRow(other.id)).toBeUndefined();
    expect(await getDb().selectFrom("sessions").select("id_hash").where("user_id", "=", other.id).execute()).toEqual(
      [],
    );
    expect(await getDb().selectFrom("api_tokens").select("user_id").where("user_id", "=", other.id).execute()).toEqual(
      [],
    );
    await smtp.mailTo(other.email, "You are no longer an administrator");
    expect(await auditRows("admin.removed")).toEqual([
      expect.objectContaining({ actor_email: admin.email, target_email: other.email, target_id: other.id }),
    ]);
  });

  it("takes the invitations they sent with them, and their invitees' maker becomes 'since removed'", async () => {
    const { cookie } = await signedIn();
    const other = await administrator();
    const { cookie: otherCookie } = await createSession(other.id);
    const accepted = await invite(otherCookie, "their.invitee@example.com");
    await acceptInvitation(accepted);
    await invite(otherCookie, "still.pending@example.com");
    expect((await post(cookie, { intent: "remove", id: other.id, confirm: "remove" })).status).toBe(302);
    expect(await invitations()).toEqual([]);
    const invitee = await getDb()
      .selectFrom("users")
      .select(["created_by", "created_via"])
      .where("email", "=", "their.invitee@example.com")
      .executeTakeFirstOrThrow();
    expect(invitee).toEqual({ created_by: null, created_via: "invitation" });
  });

  it("may remove oneself while another administrator remains, and signs one out", async () => {
    const { admin, cookie } = await signedIn();
    await administrator();
    const response = await post(cookie, { intent: "remove", id: admin.id, confirm: "remove" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/financing/login");
    expect(await userRow(admin.id)).toBeUndefined();
  });

  it("is refused for the last administrator (409), for an unknown id or an investor (404), and without sudo (403)", async () => {
    const { admin, cookie } = await signedIn();
    await clearMail();
    const last = await post(cookie, { intent: "remove", id: admin.id, confirm: "remove" });
    expect(last.status).toBe(409);
    expect(JSON.stringify(await last.json())).toMatch(/last administrator cannot be removed/);
    const investor = await createUser({ email: "not.an.admin@example.com" });
    expect((await post(cookie, { intent: "remove", id: investor.id, confirm: "remove" })).status).toBe(404);
    expect(
      (await post(cookie, { intent: "remove", id: "00000000-0000-0000-0000-000000000000", confirm: "remove" })).status,
    ).toBe(404);
    const other = await administrator();
    const unconfirmed = await post(cookie, { intent: "remove", id: other.id });
    expect(unconfirmed.status).toBe(400);
    expect(JSON.stringify(await unconfirmed.json())).toMatch(/Tick the box to confirm the removal/);
    const { cookie: stale } = await signedIn({ sudo: false });
    expect((await post(stale, { intent: "remove", id: other.id, confirm: "remove" })).status).toBe(403);
    expect(await userRow(admin.id)).toBeDefined();
    expect(await userRow(other.id)).toBeDefined();
    expect(await userRow(investor.id)).toBeDefined();
    expect(await auditRows("admin.removed")).toEqual([]);
    await settleAccountMail();
    expect(smtp.messages).toEqual([]);
  });

  it("by two administrators removing each other at once leaves one of them", async () => {
    const first = await signedIn();
    const second = await signedIn();
    const answers = await Promise.all([
      post(first.cookie, { intent: "remove", id: second.admin.id, confirm: "remove" }),
      post(second.cookie, { intent: "remove", id: first.admin.id, confirm: "remove" }),
    ]);
    // One removes the other. The other is refused as the last administrator, or, when the first removal
    // ended its account (and session) before it was read, sent to sign in: never a second removal.
    const outcomes = answers.map((answer) =>
      answer.status === 302 ? (answer.headers.get("Location") ?? "").split("?")[0] : answer.status,
    );
    expect(outcomes).toContain("/financing/admins");
    expect(outcomes.filter((outcome) => outcome === "/financing/admins")).toHaveLength(1);
    expect([409, "/financing/login"]).toContain(outcomes.find((outcome) => outcome !== "/financing/admins"));
    const left = await getDb().selectFrom("users").select("id").where("role", "=", "administrator").execute();
    expect(left).toHaveLength(1);
    expect(await auditRows("admin.removed")).toHaveLength(1);
  });
});

describe("resetting an administrator's second factor", () => {
  it("deletes their app, passkeys and recovery codes, ends their sessions and tokens, tells them, and is audited", async () => {
    const { admin, cookie } = await signedIn();
    const other = await administrator();
    await replaceRecoveryCodes(other.id);
    await addPasskey(other.id, { id: `reset-passkey-${made}`, createdAt: Date.now() });
    await createSession(other.id);
    await accessTokenFor(other.id);

    const response = await post(cookie, { intent: "reset-factor", id: other.id });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/financing/admins");
    for (const table of ["totp_credentials", "recovery_codes", "passkeys", "sessions"] as const) {
      expect(await getDb().selectFrom(table).select("user_id").where("user_id", "=", other.id).execute()).toEqual([]);
    }
    const tokens = await getDb()
      .selectFrom("api_tokens")
      .select("revoked_at")
      .where("user_id", "=", other.id)
      .execute();
    expect(tokens.every((token) => token.revoked_at !== null)).toBe(true);
    const mail = await smtp.mailTo(other.email, "Your second factor was reset");
    expect(mail.text).toContain(admin.email);
    expect(await auditRows("admin.factor_reset")).toEqual([
      expect.objectContaining({ actor_email: admin.email, target_email: other.email, target_id: other.id }),
    ]);
    expect(await stepAfterPassword((await getUserById(other.id))!)).toBe("enrol");
    // The acting administrator's own session stays.
    expect(
      await getDb().selectFrom("sessions").select("id_hash").where("user_id", "=", admin.id).execute(),
    ).toHaveLength(1);
  });

  it("is refused without sudo (403) and for an unknown id or an investor (404)", async () => {
    const { cookie } = await signedIn();
    const other = await administrator();
    const investor = await createUser({ email: "reset.investor@example.com" });
    const { cookie: stale } = await signedIn({ sudo: false });
    await clearMail();
    expect((await post(stale, { intent: "reset-factor", id: other.id })).status).toBe(403);
    expect((await post(cookie, { intent: "reset-factor", id: investor.id })).status).toBe(404);
    expect((await post(cookie, { intent: "reset-factor", id: "nobody" })).status).toBe(404);
    expect(
      await getDb().selectFrom("totp_credentials").select("user_id").where("user_id", "=", other.id).execute(),
    ).toHaveLength(1);
    expect(await auditRows("admin.factor_reset")).toEqual([]);
    await settleAccountMail();
    expect(smtp.messages).toEqual([]);
  });
});
