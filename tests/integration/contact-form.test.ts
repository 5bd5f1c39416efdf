import { createHmac } from "node:crypto";
import { EMAIL_MAX_LENGTH, CONTACT_MESSAGE_MAX_LENGTH, CONTACT_NAME_MAX_LENGTH } from "~/content/constants";
import { contactForm, contactMailSubject } from "~/content/contact";
import { controlCharacterErrors } from "~/content/forms";
import { CONTACT_RATE_LIMIT, handleContactForm } from "~/http/contact-form.server";
import { honeypotFields } from "~/http/honeypot.server";
import { keepRetryAfter } from "~/http/retry-after";
import { getToast } from "~/http/toast.server";
import { loader as contactUsLoader } from "~/routes/_site.contactus";
import { testClock } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { resetEnvForTests } from "~/server/env.server";
import { addressSequence } from "../support/api-routes";
import { useIntegration } from "../support/integration";

const APP_URL = "http://localhost:3000";
const CONTACT_EMAIL = "contact-inbox@example.com";
const { errors } = contactForm;

const { smtp } = useIntegration({ mail: true, env: { CONTACT_EMAIL, APP_URL } });
afterEach(() => {
  testClock.reset();
  smtp.refuse(false);
});

// Each test sends from its own address, so the rate limit of one never touches another.
const freshIp = addressSequence("203.0.113");

/** What the rendered form posts: the visible fields plus the honeypot fields. */
function formFields(overrides: Record<string, string> = {}) {
  const honeypot = honeypotFields(Date.now() - 5_000);
  return {
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    message: "We would like to subscribe to the ATS.",
    [honeypot.trapField]: "",
    [honeypot.stampField]: honeypot.stamp,
    ...overrides,
  };
}

function send(body: BodyInit, { ip = freshIp(), contentType }: { ip?: string; contentType?: string } = {}) {
  const headers = new Headers({ Origin: APP_URL });
  if (contentType) headers.set("Content-Type", contentType);
  const request = new Request(`${APP_URL}/contact`, { method: "POST", headers, body });
  return handleContactForm(
    { request, params: {}, context: { clientIp: ip, cspNonce: "" } },
    { redirectTo: "/contact" },
  );
}

function sendForm(fields: Record<string, string>, ip?: string) {
  return send(new URLSearchParams(fields), { ip });
}

async function storedMessages() {
  return getDb().selectFrom("contact_messages").selectAll().orderBy("id").execute();
}

/** Runs `act` and checks that it stored nothing and mailed nothing. */
async function expectNothingStoredOrSent(act: () => Promise<Response>) {
  const storedBefore = (await storedMessages()).length;
  const mailedBefore = smtp.messages.length;
  const response = await act();
  expect((await storedMessages()).length).toBe(storedBefore);
  expect(smtp.messages.length).toBe(mailedBefore);
  return response;
}

async function toastOf(response: Response) {
  const cookie = response.headers.get("Set-Cookie")?.split(";")[0] ?? "";
  const { toast } = await getToast(new Request(APP_URL, { headers: { Cookie: cookie } }));
  return toast;
}

type FormResult = { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };

describe("a valid message", () => {
  it("is stored, mailed to CONTACT_EMAIL with the visitor as Reply-To, and answered with a redirect carrying a notice", async () => {
    const ip = freshIp();
    const response = await sendForm(
      formFields({
        firstName: "  Ada ",
        lastName: "Lovelace",
        email: " ada@example.com ",
        message: "Hello,\r\nplease call us.",
      }),
      ip,
    );

    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/contact");
    expect(response.headers.get("Set-Cookie")).toMatch(/^__toast=/);
    expect(await toastOf(response)).toMatchObject({
      type: "success",
      message: "Thank you. Your message has been sent.",
    });

    const [stored] = (await storedMessages()).slice(-1);
    expect(stored).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      message: "Hello,\nplease call us.",
      ip,
    });
    expect(stored.mailed_at).toEqual(expect.any(Number));

    const mail = await smtp.waitFor((m) => m.subject === contactMailSubject("Ada", "Lovelace"));
    expect(mail.to).toEqual([CONTACT_EMAIL]);
    expect(mail.replyTo).toContain("ada@example.com");
    expect(mail.text).toContain("Hello,\nplease call us.");
    expect(mail.text).toContain("ada@example.com");
  });

  it("accepts names and a message of exactly the longest allowed length", async () => {
    const response = await sendForm(
      formFields({
        firstName: "F".repeat(CONTACT_NAME_MAX_LENGTH),
        lastName: "L".repeat(CONTACT_NAME_MAX_LENGTH),
        message: "m".repeat(CONTACT_MESSAGE_MAX_LENGTH),
      }),
    );
    expect(response.status).toBe(302);
    const [stored] = (await storedMessages()).slice(-1);
    expect(stored.message).toHaveLength(CONTACT_MESSAGE_MAX_LENGTH);
  });

  it("strips DEL and the C1 control characters from the message but keeps line breaks and tabs", async () => {
    const response = await sendForm(
      formFields({ lastName: "Control", message: "Line one\u007f\r\nLine\u0085 two\tend\u009b" }),
    );
    expect(response.status).toBe(302);
    const [stored] = (await storedMessages()).slice(-1);
    expect(stored.message).toBe("Line one\nLine two\tend");
  });

  it("refuses NUL and the other C0 control characters in the message, as every form does", async () => {
    const response = await expectNothingStoredOrSent(() =>
      sendForm(formFields({ message: "Line one\u0000\r\nLine\u0007 two\tend\u001b" })),
    );
    expect(response.status).toBe(400);
    const result = (await response.json()) as FormResult;
    expect(result.error?.message).toEqual([controlCharacterErrors.field]);
    expect(result.initialValue?.message).toBe("Line one\r\nLine two\tend");
  });
});

describe("an invalid field", () => {
  const tooLongEmail = `${"a".repeat(EMAIL_MAX_LENGTH - "@example.com".length + 1)}@example.com`;
  const cases: Array<[field: string, value: string, message: string]> = [
    ["firstName", "", errors.firstNameRequired],
    ["firstName", "   ", errors.firstNameRequired],
    ["firstName", "F".repeat(CONTACT_NAME_MAX_LENGTH + 1), "First name must be at most 100 characters"],
    ["firstName", "Ada\nBcc: victim@example.com", errors.firstNameInvalid],
    ["lastName", "", errors.lastNameRequired],
    ["lastName", "L".repeat(CONTACT_NAME_MAX_LENGTH + 1), "Last name must be at most 100 characters"],
    ["lastName", "Love\u007flace", errors.lastNameInvalid],
    ["email", "", errors.emailRequired],
    ["email", "not-an-email", "Email address is invalid"],
    ["email", "ada@example.com\r\nBcc: victim@example.com", "Email address is invalid"],
    ["email", tooLongEmail, "Email address must be at most 254 characters"],
    ["message", "", errors.messageRequired],
    ["message", " \n\t ", errors.messageRequired],
    ["message", "m".repeat(CONTACT_MESSAGE_MAX_LENGTH + 1), "Message must be at most 5,000 characters"],
  ];

  it.each(cases)(
    "%s = %j gives 400 with its message, stores nothing and mails nothing",
    async (field, value, message) => {
      const response = await expectNothingStoredOrSent(() => sendForm(formFields({ [field]: value })));
      expect(response.status).toBe(400);
      const result = (await response.json()) as FormResult;
      expect(result.error?.[field]).toContain(message);
      const otherFields = ["firstName", "lastName", "email", "message"].filter((name) => name !== field);
      for (const other of otherFields) expect(result.error?.[other]).toBeUndefined();
    },
  );

  it("keeps the entered values for the form to show again, but not the honeypot's", async () => {
    const response = await sendForm(formFields({ email: "not-an-email" }));
    const result = (await response.json()) as FormResult;
    expect(result.initialValue).toEqual({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "not-an-email",
      message: "We would like to subscribe to the ATS.",
    });
  });

  it("reports every missing field at once", async () => {
    const { firstName, lastName, email, message, ...honeypotOnly } = formFields();
    const response = await expectNothingStoredOrSent(() => sendForm(honeypotOnly));
    expect(response.status).toBe(400);
    const result = (await response.json()) as FormResult;
    expect(result.error).toMatchObject({
      firstName: [errors.firstNameRequired],
      lastName: [errors.lastNameRequired],
      email: [errors.emailRequired],
      message: [errors.messageRequired],
    });
  });
});

describe("the honeypot", () => {
  const honeypot = () => honeypotFields();

  it("turns away a bot that filled the hidden field: 400, nothing stored or sent", async () => {
    const response = await expectNothingStoredOrSent(() =>
      sendForm(formFields({ [honeypot().trapField]: "http://spam.example" })),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as FormResult).error?.[""]).toEqual([errors.refused]);
  });

  it("turns away a submission without the honeypot fields", async () => {
    const response = await expectNothingStoredOrSent(() =>
      sendForm({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", message: "Hi" }),
    );
    expect(response.status).toBe(400);
  });

  it("turns away a forged or future timestamp", async () => {
    const { stampField, stamp: genuine } = honeypot();
    const future = honeypotFields(Date.now() + 60_000).stamp;
    const [time, mac] = genuine.split(".");
    const otherKey = `${time}.${createHmac("sha256", "another secret").update(`honeypot:${time}`).digest("base64url")}`;
    const retimed = `${Number(time) - 1000}.${mac}`;
    for (const stamp of [
      "garbage",
      "U2FsdGVkX1+garbage==",
      `${time}.`,
      `${genuine}.extra`,
      otherKey,
      retimed,
      future,
    ]) {
      const response = await expectNothingStoredOrSent(() => sendForm(formFields({ [stampField]: stamp })));
      expect(response.status).toBe(400);
    }
  });
});

describe("the rate limit", () => {
  it(`allows ${CONTACT_RATE_LIMIT.limit} messages per client address, then answers 429 with Retry-After`, async () => {
    testClock.freeze(Date.now());
    const ip = freshIp();
    for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++) {
      expect((await sendForm(formFields({ lastName: `Limit${i}` }), ip)).status).toBe(302);
    }

    const refused = await expectNothingStoredOrSent(() => sendForm(formFields({ lastName: "Over" }), ip));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe(String(CONTACT_RATE_LIMIT.windowMs / 1000));
    const result = (await refused.json()) as FormResult;
    expect(result.error?.[""]).toEqual([errors.tooMany(10)]);
    expect(result.initialValue).toMatchObject({ lastName: "Over", email: "ada@example.com" });

    expect((await sendForm(formFields(), freshIp())).status).toBe(302);

    testClock.advance(CONTACT_RATE_LIMIT.windowMs);
    expect((await sendForm(formFields({ lastName: "Later" }), ip)).status).toBe(302);
  });

  it("passes Retry-After on to the page a browser without JavaScript gets", async () => {
    const ip = freshIp();
    for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++) await sendForm(formFields(), ip);
    const refused = await sendForm(formFields(), ip);
    expect(refused.status).toBe(429);
    const none = new Headers();
    const pageHeaders = new Headers(
      keepRetryAfter({
        actionHeaders: refused.headers,
        loaderHeaders: none,
        parentHeaders: none,
        errorHeaders: undefined,
      }),
    );
    expect(pageHeaders.get("Retry-After")).toBe(refused.headers.get("Retry-After"));
    const ordinary = new Headers(
      keepRetryAfter({ actionHeaders: none, loaderHeaders: none, parentHeaders: none, errorHeaders: undefined }),
    );
    expect(ordinary.has("Retry-After")).toBe(false);
  });

  it("does not count invalid submissions", async () => {
    const ip = freshIp();
    for (let i = 0; i < CONTACT_RATE_LIMIT.limit + 2; i++) {
      expect((await sendForm(formFields({ email: "" }), ip)).status).toBe(400);
    }
    expect((await sendForm(formFields(), ip)).status).toBe(302);
  });
});

describe("an SMTP failure", () => {
  it("gives the visitor the same answer and keeps the message with mailed_at null", async () => {
    smtp.refuse(true);
    const response = await sendForm(formFields({ lastName: "Unmailed" }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/contact");
    expect(await toastOf(response)).toMatchObject({ type: "success", message: contactForm.sent });

    const [stored] = (await storedMessages()).slice(-1);
    expect(stored).toMatchObject({ last_name: "Unmailed", mailed_at: null });
    expect(smtp.messages.some((m) => m.subject === contactMailSubject("Ada", "Unmailed"))).toBe(false);
  });
});

describe("a body that is not a web form", () => {
  const valid = () => Object.fromEntries(Object.entries(formFields()));

  it.each([
    ["JSON", "application/json", () => JSON.stringify(valid())],
    ["plain text", "text/plain", () => new URLSearchParams(valid()).toString()],
    ["XML", "application/xml", () => "<contact><firstName>Ada</firstName></contact>"],
  ])("refuses %s with 415 and a clear message", async (_name, contentType, body) => {
    const response = await expectNothingStoredOrSent(() => send(body(), { contentType }));
    expect(response.status).toBe(415);
    expect(((await response.json()) as FormResult).error?.[""]).toEqual([errors.wrongContentType]);
  });

  it("refuses a body without a content type with 415", async () => {
    const request = new Request(`${APP_URL}/contact`, {
      method: "POST",
      headers: { Origin: APP_URL },
      body: new Blob([new URLSearchParams(valid()).toString()]),
    });
    const response = await expectNothingStoredOrSent(() =>
      handleContactForm(
        { request, params: {}, context: { clientIp: freshIp(), cspNonce: "" } },
        { redirectTo: "/contact" },
      ),
    );
    expect(response.status).toBe(415);
  });
});

describe("garbage bodies", () => {
  it.each([
    ["a broken multipart body", "multipart/form-data; boundary=xyz", "--xyz\r\nnot a part\r\n"],
    ["multipart without a boundary", "multipart/form-data", "firstName=Ada"],
    ["urlencoded noise", "application/x-www-form-urlencoded", "%%%&&==&\u0000\uFFFF"],
    ["an empty body", "application/x-www-form-urlencoded", ""],
  ])("answers %s with 400, never 500", async (_name, contentType, body) => {
    const response = await expectNothingStoredOrSent(() => send(body, { contentType }));
    expect(response.status).toBe(400);
  });

  it("ignores a field it does not know (such as the __intent__ a Conform client used to send)", async () => {
    const response = await sendForm(formFields({ lastName: "Stray", __intent__: "{not json" }));
    expect(response.status).toBe(302);
    const [stored] = (await storedMessages()).slice(-1);
    expect(stored).toMatchObject({ last_name: "Stray" });
  });

  it("answers repeated fields (an array where text is expected) with 400", async () => {
    const params = new URLSearchParams(formFields());
    params.append("firstName", "Second");
    const response = await expectNothingStoredOrSent(() => send(params));
    expect(response.status).toBe(400);
    expect(((await response.json()) as FormResult).error?.firstName).toEqual([errors.firstNameRequired]);
  });

  it("answers a file where text is expected with 400", async () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(formFields())) form.append(name, value);
    form.set("message", new File(["hello"], "message.txt", { type: "text/plain" }));
    const response = await expectNothingStoredOrSent(() => send(form));
    expect(response.status).toBe(400);
    expect(((await response.json()) as FormResult).error?.message).toEqual([errors.messageRequired]);
  });

  it("accepts a valid multipart submission like a urlencoded one", async () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(formFields({ lastName: "Multipart" }))) form.append(name, value);
    expect((await send(form)).status).toBe(302);
  });
});

describe("/contactus", () => {
  const visitContactUs = () =>
    contactUsLoader({
      request: new Request(`${APP_URL}/contactus`),
      params: {},
      context: { clientIp: freshIp(), cspNonce: "" },
    });

  afterEach(() => {
    delete process.env.CONTACT_FORM_URL;
    resetEnvForTests();
  });

  it("redirects the browser (302) to CONTACT_FORM_URL when it is set", async () => {
    process.env.CONTACT_FORM_URL = "https://forms.example.com/firm-contact";
    resetEnvForTests();
    const response = await visitContactUs();
    expect(response).toBeInstanceOf(Response);
    expect((response as Response).status).toBe(302);
    expect((response as Response).headers.get("Location")).toBe("https://forms.example.com/firm-contact");
  });

  it("shows the form itself, with its honeypot fields, when CONTACT_FORM_URL is not set", async () => {
    delete process.env.CONTACT_FORM_URL;
    resetEnvForTests();
    expect(await visitContactUs()).toEqual({
      honeypot: expect.objectContaining({ trapField: "name__confirm", stampField: "from__confirm" }),
    });
  });
});
