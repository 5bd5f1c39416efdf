import { expect, request as playwrightRequest, test, type APIResponse } from "@playwright/test";
import { firmSettingVariables } from "~/content/firm-settings.server";
import { unusedTotpCode } from "../support/totp";
import { startPrivateServer, type PrivateServer } from "./support/private-server";
import { honeypotFieldsOf } from "./support/raw-http";

/**
 * A firm launches without touching code: with its settings in the environment,
 * no page, portal state, e-mail or API answer shows a built-in placeholder.
 * The crawl walks every public page, every account page, an investor through
 * every screen of /financing and the materials, the administrator's pages, and
 * the API answers on the way, and reads every e-mail the walk sends.
 */

const PASSWORD = "a long crawl passphrase";
const PLACEHOLDER_MAILBOXES = /\b(info|institutional|investors)@northbeam\.example\b/i;

type Crawl = { texts: Map<string, string>; server: PrivateServer };

let server: PrivateServer | undefined;
test.afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

/** Everything a visitor, an investor at each step and an administrator can be shown, keyed by what showed it. */
async function crawl(env: Record<string, string>): Promise<Crawl> {
  server = await startPrivateServer({ name: "firm-settings", env: { AUTH_RATE_LIMIT_PER_MINUTE: "10000", ...env } });
  const base = server.url;
  const texts = new Map<string, string>();
  const keep = async (label: string, response: APIResponse) => {
    expect(response.status(), label).toBeLessThan(500);
    texts.set(label, await response.text());
    return response;
  };
  const visitor = await playwrightRequest.newContext({ baseURL: base });
  const investor = await playwrightRequest.newContext({ baseURL: base });
  const json = (data: unknown, token?: string) => ({
    data: JSON.stringify(data),
    headers: { "Content-Type": "application/json", ...(token && { Authorization: `Bearer ${token}` }) },
  });

  // Every public page the sitemap lists, the pages it does not, and the error page.
  const sitemap = await (await visitor.get("/sitemap.xml")).text();
  const publicPaths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => new URL(loc).pathname);
  expect(publicPaths.length).toBeGreaterThan(5);
  for (const path of new Set([
    ...publicPaths,
    "/home",
    "/contact",
    "/contactus",
    "/demo",
    "/introvideo",
    "/no-such-page",
  ])) {
    await keep(`page ${path}`, await visitor.get(path));
  }
  for (const path of [
    "/financing/login",
    "/financing/signup",
    "/financing/forgotpassword",
    "/financing/verify-email",
  ]) {
    await keep(`page ${path}`, await visitor.get(path));
  }
  await keep("page /financing/resetpassword/<bad link>", await visitor.get("/financing/resetpassword/not-a-token"));

  // The contact form: its answer, and the message the firm receives.
  const contactPage = await (await visitor.get("/contact")).text();
  await keep(
    "contact form answer",
    await visitor.post("/contact", {
      form: {
        ...honeypotFieldsOf(contactPage),
        firstName: "Ada",
        lastName: "Crawler",
        email: "ada.crawler@example.com",
        message: "Hello from the crawl.",
      },
    }),
  );

  // An investor: registered twice (the second time is the "already registered" mail), verified, logged in.
  const email = `crawl.${Date.now().toString(36)}@example.com`;
  await keep("api register", await visitor.post("/api/auth/register", json({ email, password: PASSWORD })));
  const verifyMail = await server.smtp.waitFor((mail) => mail.to.includes(email) && /Verify/.test(mail.subject));
  const verifyPath = new URL(/https?:\/\/\S+\/auth\/verify\/\S+/.exec(verifyMail.text)![0]).pathname;
  await keep("page /auth/verify/<token>", await visitor.get(verifyPath));
  await keep("api register again", await visitor.post("/api/auth/register", json({ email, password: PASSWORD })));
  await keep(
    "page /financing/login answer",
    await investor.post("/financing/login", { form: { email, password: PASSWORD } }),
  );
  await keep("investor /financing: name and address", await investor.get("/financing"));
  await keep(
    "investor name and address answer",
    await investor.post("/financing?index", {
      form: { fullName: "Ada Crawler", addressLine1: "1 Crawl Street", addressLine2: "Springfield" },
    }),
  );
  await keep("investor /financing: thank you", await investor.get("/financing"));
  for (const path of ["/financing/materials", "/financing/slidedeck"]) {
    await keep(`investor ${path} before the NDA`, await investor.get(path));
  }

  // An administrator moves the investor through the NDA states; the investor looks at each.
  const admin = `crawl.admin.${Date.now().toString(36)}@example.com`;
  const adminSecret = await server.createAdministrator(admin, PASSWORD);
  const adminLogin = await keep(
    "api login",
    await visitor.post(
      "/api/auth/login",
      json({ email: admin, password: PASSWORD, code: await unusedTotpCode(adminSecret) }),
    ),
  );
  const { accessToken } = (await adminLogin.json()) as { accessToken: string };
  await keep(
    "api update_nda_sent",
    await visitor.post("/api/user/update_nda_sent", json({ email, state: true }, accessToken)),
  );
  await keep("investor /financing: NDA sent", await investor.get("/financing"));
  await keep(
    "api set_name_address after the NDA was sent",
    await investor.post(
      "/api/user/set_name_address",
      json({ full_name: "Changed", address: "Elsewhere" }, (await investorToken()).accessToken),
    ),
  );
  await keep(
    "api update_nda_signed",
    await visitor.post("/api/user/update_nda_signed", json({ email, state: true }, accessToken)),
  );
  await keep("investor /financing: NDA signed", await investor.get("/financing"));
  for (const path of [
    "/financing/materials",
    "/financing/introductoryvideo",
    "/financing/termsandconditions",
    "/financing/slidedeck",
    "/financing/descriptionofsecurities",
  ]) {
    await keep(`investor ${path}`, await investor.get(path));
  }
  await keep(
    "api get_investors",
    await visitor.get("/api/user/get_investors", { headers: { Authorization: `Bearer ${accessToken}` } }),
  );

  const administrator = await playwrightRequest.newContext({ baseURL: base });
  await administrator.post("/financing/login", { form: { email: admin, password: PASSWORD } });
  for (const path of ["/financing", "/financing/audit", "/financing/investors.csv"]) {
    await keep(`administrator ${path}`, await administrator.get(path));
  }

  // The password e-mails: reset, changed, and the lockout notice after 20 failures.
  await keep("api forgot-password", await visitor.get(`/api/auth/forgot-password/${encodeURIComponent(email)}`));
  const resetMail = await server.smtp.waitFor((mail) => mail.to.includes(email) && /Reset/.test(mail.subject));
  const resetToken = /\/financing\/resetpassword\/(\S+)/.exec(resetMail.text)![1];
  await keep("page /financing/resetpassword/<token>", await visitor.get(`/financing/resetpassword/${resetToken}`));
  await keep(
    "api reset-password",
    await visitor.post(
      "/api/auth/reset-password",
      json({ newPasswordToken: resetToken, newPassword: `${PASSWORD} two` }),
    ),
  );
  for (let attempt = 0; attempt < 20; attempt++) {
    await visitor.post("/api/auth/login", json({ email, password: "a wrong passphrase" }));
  }
  await keep(
    "api login while locked",
    await visitor.post("/api/auth/login", json({ email, password: "a wrong passphrase" })),
  );

  const expectedMail = [
    // In the order the walk sends them.
    /Verify/,
    /already have an account/,
    /Contact form/,
    /name and address|NDA/i,
    /materials are open/,
    /Reset/,
    /password was changed/,
    /locked/,
  ];
  for (const subject of expectedMail) {
    await server.smtp
      .waitFor((mail) => subject.test(mail.subject))
      .catch(() =>
        expect(
          server!.smtp.messages.map((mail) => mail.subject),
          `an e-mail like ${subject}`,
        ).toContain(""),
      );
  }
  for (const [index, mail] of server.smtp.messages.entries()) {
    texts.set(
      `mail ${index + 1}: ${mail.subject}`,
      [mail.from, mail.replyTo, mail.to.join(", "), mail.subject, mail.text].join("\n"),
    );
  }
  await Promise.all([visitor.dispose(), investor.dispose(), administrator.dispose()]);
  return { texts, server };

  async function investorToken() {
    const response = await visitor.post("/api/auth/login", json({ email, password: PASSWORD }));
    return (await response.json()) as { accessToken: string };
  }
}

function showing(texts: Map<string, string>, pattern: RegExp) {
  return [...texts]
    .filter(([, text]) => pattern.test(text))
    .map(
      ([label, text]) => `${label}: …${text.slice(Math.max(0, text.search(pattern) - 60), text.search(pattern) + 60)}…`,
    );
}

test.beforeEach(() => test.setTimeout(180_000));

test("with CONTACT_EMAIL set, no page, e-mail or API answer shows a built-in placeholder mailbox", async () => {
  const { texts } = await crawl({ CONTACT_EMAIL: "desk@firm.test" });
  expect(texts.size).toBeGreaterThan(40);
  expect(showing(texts, PLACEHOLDER_MAILBOXES)).toEqual([]);
  // Unset, the operating start is the specification's sentence, word for word.
  expect(texts.get("page /investors")).toContain("We expect to begin operating in the fourth quarter of 2025.");
  // The configured mailbox is what they show instead: on the institutional page, in the portal, in e-mails.
  for (const label of ["page /investors", "investor /financing: NDA sent", "investor /financing/materials"]) {
    expect(texts.get(label), label).toContain("desk@firm.test");
  }
  expect(
    [...texts].filter(([label, text]) => label.startsWith("mail") && text.includes("desk@firm.test")).length,
  ).toBeGreaterThan(5);
});

test("with every firm setting set, the built-in names and link appear nowhere", async () => {
  const settings = {
    CONTACT_EMAIL: "desk@acme.test",
    INSTITUTIONAL_EMAIL: "markets@acme.test",
    INVESTORS_EMAIL: "ir@acme.test",
    FIRM_NAME: "Acme Capital Markets LLC",
    FIRM_SHORT_NAME: "Acme",
    ATS_NAME: "AcmeX",
    PARENT_COMPANY: "Acme Group plc",
    SOCIAL_LABEL: "Follow Acme",
    SOCIAL_URL: "https://social.example/acme",
    OPERATING_START: "the second quarter of 2031",
  };
  const { texts } = await crawl(settings);
  for (const placeholder of Object.values(firmSettingVariables).filter(Boolean)) {
    // Whole values only: the team's own profile links (placeholders of another kind) begin like the social link.
    const pattern = new RegExp(`(?<![\\w/.-])${placeholder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w/.-])`);
    expect(showing(texts, pattern), placeholder).toEqual([]);
  }
  expect(showing(texts, /northbeam/i)).toEqual([]);
  expect(texts.get("page /investors")).toContain("markets@acme.test");
  expect(texts.get("investor /financing/materials")).toContain("ir@acme.test");
  expect(texts.get("page /disclaimer")).toContain("Acme Group plc");
  expect(texts.get("page /")).toContain("https://social.example/acme");
  // The browser renders with the same settings: they are in the page for it.
  expect(texts.get("page /")).toContain('"atsName":"AcmeX"');
  for (const label of ["page /", "page /investors"]) {
    expect(texts.get(label), label).toContain("We expect to begin operating in the second quarter of 2031.");
  }
  expect(texts.get("page /faq")).toContain("AcmeX to begin operating in the second quarter of 2031.");
  expect(texts.get("page /")).toContain('"operatingStart":"the second quarter of 2031"');
  // The copyright line runs to the year the server rendered the page in, and hands that year to the browser.
  const year = new Date().getUTCFullYear();
  expect(texts.get("page /")).toContain(`© 2024–${year} Acme Capital Markets LLC. All rights reserved.`);
  expect(texts.get("page /")).toContain(`window.__currentYear=${year}`);
});
