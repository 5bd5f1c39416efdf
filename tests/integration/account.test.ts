import { startSmtpCatcher, type SmtpCatcher } from "../support/smtp-catcher";
import { useFreshDatabase } from "../support/test-database";
import {
  logIn,
  registerAccount,
  requestPasswordReset,
  resendVerificationEmail,
  resetPassword,
  settleAccountMail,
  verifyEmail,
} from "~/models/account.server";
import { getUserByEmail } from "~/models/user.server";
import { testClock } from "~/utils/clock.server";
import { getDb } from "~/utils/db.server";

let smtp: SmtpCatcher;
let database: Awaited<ReturnType<typeof useFreshDatabase>>;
let ipCounter = 0;
/** Each call a new client address, so the 10-a-minute limit only bites where a test means it to. */
const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  database = await useFreshDatabase({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await settleAccountMail();
  await database.cleanup();
  await smtp.close();
});
afterEach(() => testClock.reset());

const PASSWORD = "correct horse battery";

function linkIn(text: string, path: string) {
  const link = text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(path));
  if (!link) throw new Error(`no ${path} link in: ${text}`);
  return link;
}

async function mailTo(address: string, subject: string) {
  return smtp.waitFor((m) => m.to.includes(address) && m.subject === subject);
}

describe("sign-up, verification and login", () => {
  it("creates an unverified investor, mails the link, verifies once and then logs in", async () => {
    const email = "new.investor@example.com";
    expect(await registerAccount({ email: " New.Investor@Example.com ", password: PASSWORD, ip: freshIp() })).toEqual({ ok: true });
    const user = await getUserByEmail(email);
    expect(user).toMatchObject({ email, role: { name: "investor" }, isNDASent: false, isNDASigned: false, fullName: "", address: "" });

    const login = await logIn({ email, password: PASSWORD, ip: freshIp() });
    expect(login).toMatchObject({ ok: false, status: 403, code: "unverified" });

    const mail = await mailTo(email, "Verify your email address");
    const link = linkIn(mail.text, "/auth/verify/");
    expect(link.startsWith("http://localhost:3000/auth/verify/")).toBe(true);
    const token = link.split("/").pop();
    expect(await verifyEmail(token)).toEqual({ ok: true });
    expect(await verifyEmail(token)).toMatchObject({ ok: false });

    const ok = await logIn({ email, password: PASSWORD, ip: freshIp() });
    expect(ok).toMatchObject({ ok: true, user: { email } });
  });
});

describe("password reset", () => {
  it("mails a link that sets a new password once", async () => {
    const email = "reset.me@example.com";
    await registerAccount({ email, password: PASSWORD, ip: freshIp() });
    expect(await requestPasswordReset({ email, ip: freshIp() })).toEqual({ ok: true });
    const mail = await mailTo(email, "Reset your password");
    const token = linkIn(mail.text, "/financing/resetpassword/").split("/").pop();
    expect(await resetPassword({ token, password: "a brand new secret", ip: freshIp() })).toEqual({ ok: true });
    expect(await logIn({ email, password: PASSWORD, ip: freshIp() })).toMatchObject({ ok: false, status: 401 });
    expect(await logIn({ email, password: "a brand new secret", ip: freshIp() })).toMatchObject({ ok: true });
    await mailTo(email, "Your password was changed");
    expect(await resendVerificationEmail({ email, ip: freshIp() })).toEqual({ ok: true });
    const row = await getDb().selectFrom("users").select("email_verified_at").where("email", "=", email).executeTakeFirstOrThrow();
    expect(row.email_verified_at).not.toBeNull();
  });
});
