/**
 * The mail server down (connection refused), refusing (550) or hanging (takes
 * the connection, never greets) during sign-up, verification resend, forgot
 * password and the contact form: each visitor gets the very answer they get
 * when mail works, nothing stored is lost, and the e-mail can be sent again
 * once the server is back (a resend, a new reset link, `npm run mail:retry`).
 * Real SQLite file, real SMTP servers on 127.0.0.1, the routes' own actions.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { contactMailSubject } from "~/content/contact";
import { honeypotFields } from "~/http/honeypot.server";
import { getToast } from "~/http/toast.server";
import { settleAccountMail } from "~/models/account/account-mail.server";
import { resetPassword } from "~/models/account/password-reset.server";
import { registerAccount, verifyEmail } from "~/models/account/sign-up.server";
import { CONTACT_RETRY_MIN_AGE_MS } from "~/models/contact/contact.server";
import * as contactPage from "~/routes/_site.contact";
import * as forgotApi from "~/routes/api.auth.forgot-password.$email";
import * as registerApi from "~/routes/api.auth.register";
import * as forgotPage from "~/routes/financing.forgotpassword";
import * as signupPage from "~/routes/financing.signup";
import * as resendPage from "~/routes/financing.verify-email";
import { getDb } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { SMTP_TIMEOUTS, resetMailTransportForTests } from "~/server/mail.server";
import { addressSequence, callRoute, type RouteModule } from "../support/api-routes";
import { useIntegration } from "../support/integration";
import { tokenIn } from "../support/mail-links";
import { downSmtpUrl, startHangingSmtpServer, type HangingSmtpServer } from "../support/smtp-faults";

const APP_URL = "http://localhost:3000";
const CONTACT_EMAIL = "contact-inbox@example.com";
const PASSWORD = "Mail-Fault-Passphrase-17";

let hanging: HangingSmtpServer;
const freshIp = addressSequence("198.51.100");

const { smtp } = useIntegration({ mail: true, env: { CONTACT_EMAIL, APP_URL } });
beforeAll(async () => {
  hanging = await startHangingSmtpServer();
});
afterAll(async () => {
  await hanging.close();
});

function useMailServer(url: string) {
  process.env.SMTP_URL = url;
  resetEnvForTests();
  resetMailTransportForTests();
}

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: APP_URL },
  body: new URLSearchParams(fields).toString(),
  ip: freshIp(),
});

/** The contact form's hidden honeypot fields, as the page renders them. */
function contactHoneypot() {
  const fields = honeypotFields(Date.now() - 5_000);
  return { [fields.trapField]: "", [fields.stampField]: fields.stamp };
}

/** What a visitor sees: the status, where it goes, the notice it carries, the JSON it says. */
async function answerOf(response: Response) {
  // Every cookie the answer sets (sign-up also remembers where the link went), as the browser sends them back.
  const cookie = response.headers
    .getSetCookie()
    .map((setCookie) => setCookie.split(";")[0])
    .join("; ");
  const { toast } = await getToast(new Request(APP_URL, { headers: { Cookie: cookie } }));
  const isJson = response.headers.get("Content-Type")?.includes("application/json");
  return {
    status: response.status,
    location: response.headers.get("Location"),
    toast: toast ? { type: toast.type, message: toast.message } : null,
    body: isJson ? await response.json() : null,
  };
}

/** The addresses one scenario uses: new ones, an unverified one, a verified one. */
type People = { newPage: string; newApi: string; unverified: string; verified: string };

async function peopleFor(label: string): Promise<People> {
  const people = {
    newPage: `${label}.new-page@example.com`,
    newApi: `${label}.new-api@example.com`,
    unverified: `${label}.unverified@example.com`,
    verified: `${label}.verified@example.com`,
  };
  for (const email of [people.unverified, people.verified]) {
    expect(await registerAccount({ email, password: PASSWORD, ip: freshIp() })).toEqual({ ok: true });
  }
  await settleAccountMail();
  await getDb()
    .updateTable("users")
    .set({ email_verified_at: Date.now() })
    .where("email", "=", people.verified)
    .execute();
  return people;
}

/** The four flows of the issue, as visitors and API clients send them; each answer as the visitor sees it. */
async function runFlows(people: People, lastName: string) {
  const route = (module: unknown) => module as RouteModule;
  const answers = {
    signUpPage: await callRoute(route(signupPage), {
      path: "/financing/signup",
      ...form({ email: people.newPage, password: PASSWORD, confirmPassword: PASSWORD }),
    }),
    signUpApi: await callRoute(route(registerApi), {
      path: "/api/auth/register",
      json: { email: people.newApi, password: PASSWORD },
      ip: freshIp(),
    }),
    resendPage: await callRoute(route(resendPage), {
      path: "/financing/verify-email",
      ...form({ email: people.unverified }),
    }),
    forgotPage: await callRoute(route(forgotPage), {
      path: "/financing/forgotpassword",
      ...form({ email: people.verified }),
    }),
    forgotApi: await callRoute(route(forgotApi), {
      path: `/api/auth/forgot-password/${people.verified}`,
      params: { email: people.verified },
      ip: freshIp(),
    }),
  };
  const started = Date.now();
  const contact = await callRoute(route(contactPage), {
    path: "/contact",
    ...form({
      ...contactHoneypot(),
      firstName: "Ada",
      lastName,
      email: "ada@example.com",
      message: `A message from the ${lastName} test.`,
    }),
  });
  const contactMs = Date.now() - started;
  const seen = Object.fromEntries(
    await Promise.all(Object.entries({ ...answers, contact }).map(async ([flow, r]) => [flow, await answerOf(r)])),
  );
  return { seen, contactMs };
}

const tokens = (email: string, purpose: "verify" | "reset") =>
  getDb()
    .selectFrom("one_time_tokens")
    .innerJoin("users", "users.id", "one_time_tokens.user_id")
    .select("one_time_tokens.token_hash")
    .where("users.email", "=", email)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();

const contactRow = (lastName: string) =>
  getDb().selectFrom("contact_messages").selectAll().where("last_name", "=", lastName).executeTakeFirstOrThrow();

let mailWorks: Awaited<ReturnType<typeof runFlows>>["seen"];

test("with mail working: the answers every fault must match, and every e-mail sent", async () => {
  useMailServer(smtp.url);
  const people = await peopleFor("works");
  mailWorks = (await runFlows(people, "Works")).seen;
  await settleAccountMail();
  expect(mailWorks.signUpPage).toMatchObject({
    status: 302,
    location: "/financing/verify-email",
    toast: { type: "success" },
  });
  expect(mailWorks.signUpApi).toMatchObject({ status: 201 });
  expect(mailWorks.contact).toMatchObject({ status: 302, location: "/contact", toast: { type: "success" } });
  await smtp.mailTo(people.newPage, /verify/i, 10_000);
  await smtp.mailTo(people.unverified, /verify/i, 10_000);
  await smtp.mailTo(people.verified, /reset/i, 10_000);
  await smtp.waitFor((m) => m.subject === contactMailSubject("Ada", "Works"));
  expect((await contactRow("Works")).mailed_at).toEqual(expect.any(Number));
});

const faults = [
  { name: "down (connection refused)", lastName: "Down", url: () => downSmtpUrl() },
  {
    name: "refusing (550 to every sender)",
    lastName: "Refused",
    url: async () => {
      smtp.refuse(true);
      return smtp.url;
    },
  },
  { name: "hanging past the mailer's timeouts", lastName: "Hanging", url: async () => hanging.url },
];

describe.each(faults)("the mail server $name", ({ name, lastName, url }) => {
  it(
    "gives every visitor the mail-works answer, loses nothing, and the e-mail goes out once the server is back",
    { timeout: 60_000 },
    async () => {
      const people = await peopleFor(lastName.toLowerCase());
      const usersBefore = await getDb().selectFrom("users").select("email").orderBy("email").execute();
      const connectionsBefore = hanging.connections();
      const mailsBefore = smtp.messages.length;

      useMailServer(await url());
      const { seen, contactMs } = await runFlows(people, lastName);
      // The account e-mails go out after the answer; while the server hangs they are still waiting now.
      await settleAccountMail();
      smtp.refuse(false);
      useMailServer(smtp.url);

      // The same answers, flow by flow, as when mail works.
      expect(seen).toEqual(mailWorks);
      expect(smtp.messages.length).toBe(mailsBefore);
      if (name.startsWith("hanging")) {
        expect(hanging.connections() - connectionsBefore).toBeGreaterThanOrEqual(6);
        // The contact form waits for its e-mail, but only as long as the SMTP greeting timeout allows.
        expect(contactMs).toBeLessThan(SMTP_TIMEOUTS.greetingTimeout + 3_000);
      }

      // Nothing stored is lost: every account is there, the new ones too, each with its link; the message is queued.
      const usersAfter = (await getDb().selectFrom("users").select("email").orderBy("email").execute()).map(
        (u) => u.email,
      );
      expect(usersAfter).toEqual(
        expect.arrayContaining([...usersBefore.map((u) => u.email), people.newPage, people.newApi]),
      );
      for (const email of [people.newPage, people.newApi, people.unverified]) {
        expect(await tokens(email, "verify"), email).toHaveLength(1);
      }
      expect(await tokens(people.verified, "reset")).toHaveLength(1);
      expect(await contactRow(lastName)).toMatchObject({ email: "ada@example.com", mailed_at: null });

      // Sent again once the server is back: a fresh verification link that verifies, a reset link that resets.
      const resend = await callRoute(resendPage as unknown as RouteModule, {
        path: "/financing/verify-email",
        ...form({ email: people.newPage }),
      });
      expect(resend.status).toBe(302);
      await settleAccountMail();
      expect(await verifyEmail(tokenIn(await smtp.mailTo(people.newPage, /verify/i, 10_000), "/auth/verify/"))).toEqual(
        { ok: true },
      );
      const forgot = await callRoute(forgotPage as unknown as RouteModule, {
        path: "/financing/forgotpassword",
        ...form({ email: people.verified }),
      });
      expect(forgot.status).toBe(302);
      await settleAccountMail();
      const resetToken = tokenIn(await smtp.mailTo(people.verified, /reset/i, 10_000), "/financing/resetpassword/");
      expect(await resetPassword({ token: resetToken, password: `${PASSWORD}-new`, ip: freshIp() })).toEqual({
        ok: true,
      });
    },
  );
});

// Each run starts the script in a process of its own (tsx compiles it first): seconds each on a busy machine.
describe("npm run mail:retry", { timeout: 90_000 }, () => {
  const run = (smtpUrl: string) =>
    promisify(execFile)("npx", ["tsx", "scripts/mail-retry.ts"], {
      env: { ...process.env, SMTP_URL: smtpUrl, CONTACT_EMAIL, NODE_ENV: "production" },
    }).then(
      (done) => ({ code: 0, output: done.stdout }),
      (failed: { code: number; stdout: string }) => ({ code: failed.code, output: failed.stdout }),
    );
  const queued = () =>
    getDb().selectFrom("contact_messages").select("last_name").where("mailed_at", "is", null).execute();

  beforeAll(async () => {
    // The three messages the faults left behind, as they are a minute later (younger ones are the form's to send).
    await getDb()
      .updateTable("contact_messages")
      .set((eb) => ({ created_at: eb("created_at", "-", CONTACT_RETRY_MIN_AGE_MS) }))
      .where("mailed_at", "is", null)
      .execute();
  });

  it("leaves the queue as it is, and says so (exit 1), while the mail server is still down", async () => {
    const result = await run(await downSmtpUrl());
    expect(result.code).toBe(1);
    expect(result.output).toContain("Contact messages sent again: 0; still unsent: 3.");
    expect((await queued()).map((row) => row.last_name).sort()).toEqual(["Down", "Hanging", "Refused"]);
  });

  it("sends every queued message once the server is back, as the form would have, and only once", async () => {
    // A message whose mail just failed: the form's own attempt is this recent, so the retry leaves it be.
    useMailServer(await downSmtpUrl());
    const recent = await callRoute(contactPage as unknown as RouteModule, {
      path: "/contact",
      ...form({ ...contactHoneypot(), firstName: "Ada", lastName: "Recent", email: "ada@example.com", message: "Hi" }),
    });
    expect(recent.status).toBe(302);
    useMailServer(smtp.url);
    const mailsBefore = smtp.messages.length;

    const first = await run(smtp.url);
    expect(first).toMatchObject({ code: 0 });
    expect(first.output).toContain("Contact messages sent again: 3; still unsent: 0.");
    const resent = smtp.messages.slice(mailsBefore);
    expect(resent.map((mail) => mail.subject).sort()).toEqual(
      ["Down", "Hanging", "Refused"].map((name) => contactMailSubject("Ada", name)).sort(),
    );
    for (const mail of resent) {
      expect(mail.to).toEqual([CONTACT_EMAIL]);
      expect(mail.replyTo).toContain("ada@example.com");
      expect(mail.text).toMatch(/A message from the (Down|Refused|Hanging) test\./);
    }
    expect(await queued()).toEqual([{ last_name: "Recent" }]);

    const second = await run(smtp.url);
    expect(second.output).toContain("Contact messages sent again: 0; still unsent: 0.");
    expect(second.output).toContain("Alert e-mails sent again: 0; still unsent: 0.");
    expect(smtp.messages.length).toBe(mailsBefore + 3);
  });
});
