/**
 * The firm's switches for what follows the materials, and questions and answers (docs/decisions/0037):
 * the settings page asks "Confirm it's you" and is audited; a part turned off answers 404 to its pages and
 * API and stores nothing; a question is mailed to the firm, answered privately or published, the asker
 * mailed; the published answers reach every reader of the document, never naming the asker; an edited
 * answer keeps its earlier text; an investor never sees another's questions. Bad input is a 4xx that
 * stores nothing and mails nothing.
 */
import { firm } from "~/content/firm";
import { eventInWords } from "~/models/audit/audit-log.server";
import { QUESTIONS_PER_HOUR } from "~/models/questions/questions.server";
import * as questionsApi from "~/routes/api.questions";
import * as answerApi from "~/routes/api.questions.$id.answer";
import * as closeApi from "~/routes/api.questions.$id.close";
import * as publishedApi from "~/routes/api.questions.published";
import * as queueApi from "~/routes/api.questions.queue";
import * as queuePage from "~/routes/financing.question-queue";
import * as questionsPage from "~/routes/financing.questions";
import * as settingsPage from "~/routes/financing.settings";
import { getDb } from "~/server/db.server";
import { callRoute, type RouteModule } from "../support/api-routes";
import { bearerHeaders, createSession, sessionHeaders } from "../support/factories";
import { useIntegration } from "../support/integration";
import { countRows as count } from "../support/library-rows";

const route = (module: unknown) => module as RouteModule;
const { smtp, investor, administrator: admin, clock } = useIntegration({ mail: true });
/** A PDF every signed investor can read (the first library's PDFs have one page), another no one can, a video. */
let readableId: string;
let unreadableId: string;
let videoId: string;

beforeAll(async () => {
  const documents = await getDb()
    .selectFrom("documents")
    .select(["id", "kind"])
    .where("published", "=", 1)
    .orderBy("position")
    .execute();
  const pdfs = documents.filter((document) => document.kind === "pdf");
  readableId = pdfs[0]!.id;
  unreadableId = pdfs[1]!.id;
  videoId = documents.find((document) => document.kind === "video")!.id;
  // Chosen for nobody: no investor can read it.
  await getDb().updateTable("documents").set({ audience: "chosen" }).where("id", "=", unreadableId).execute();
});

function form(fields: Record<string, string>) {
  return {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  };
}

async function saveSettings(cookie: string, fields: Record<string, string>) {
  return callRoute(route(settingsPage), {
    path: "/financing/settings",
    ...form(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
  });
}

async function turn(on: { questions?: boolean; qualification?: boolean; interest?: boolean }) {
  const { cookie } = await createSession((await admin()).id);
  const fields: Record<string, string> = { verificationDays: "90" };
  for (const [name, value] of Object.entries(on)) if (value) fields[name] = "on";
  const saved = await saveSettings(cookie, fields);
  expect(saved.status).toBe(302);
}

const auditActions = async (action: string) =>
  getDb().selectFrom("audit_events").selectAll().where("action", "=", action).orderBy("id", "desc").execute();

describe("the settings page", () => {
  it("asks an administrator to confirm it's them, stores the switches and audits them in words", async () => {
    const administrator = await admin();
    const unconfirmed = await createSession(administrator.id, { reauthenticated: false });
    const refused = await saveSettings(unconfirmed.cookie, { questions: "on", verificationDays: "30" });
    expect(refused.status).toBe(403);
    expect((await refused.json()).confirmHref).toContain("/financing/confirm");
    expect((await getDb().selectFrom("portal_features").selectAll().executeTakeFirstOrThrow()).questions).toBe(0);

    const { cookie } = await createSession(administrator.id);
    const badDays = await saveSettings(cookie, { questions: "on", verificationDays: "0" });
    expect(badDays.status).toBe(400);
    expect((await badDays.json()).message).toMatch(/1 to 3,650/);
    const tooLong = await saveSettings(cookie, { interestNotice: "x".repeat(2001), verificationDays: "30" });
    expect(tooLong.status).toBe(400);
    expect((await getDb().selectFrom("portal_features").selectAll().executeTakeFirstOrThrow()).questions).toBe(0);

    const saved = await saveSettings(cookie, { questions: "on", interest: "on", verificationDays: "30" });
    expect(saved.status).toBe(302);
    const page = await callRoute(route(settingsPage), { path: "/financing/settings", headers: { Cookie: cookie } });
    expect((await page.json()).features).toMatchObject({
      questions: true,
      qualification: false,
      interest: true,
      verificationDays: 30,
    });
    const [row] = await auditActions("settings.changed");
    expect(row!.actor_email).toBe(administrator.email);
    expect(eventInWords(row!.action, { target: null, details: JSON.parse(row!.details!) })).toBe(
      "Turned questions and answers on, qualification off and indications of interest on",
    );
  });

  it("is an administrator's: an investor is refused", async () => {
    const { cookie } = await createSession((await investor("nda-signed")).id);
    const answer = await saveSettings(cookie, { questions: "on", verificationDays: "30" });
    expect(answer.status).toBe(403);
  });
});

describe("questions and answers turned off", () => {
  beforeAll(() => turn({}));

  it("answers 404 to the pages and the API, and a question sent anyway is neither stored nor mailed", async () => {
    const asker = await investor("nda-signed");
    const mailsBefore = smtp.messages.length;
    const headers = await sessionHeaders(asker.id);
    expect((await callRoute(route(questionsPage), { path: "/financing/questions", headers })).status).toBe(404);
    const posted = await callRoute(route(questionsPage), {
      path: "/financing/questions",
      ...form({ body: "Is the raise still open?" }),
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(posted.status).toBe(404);
    const bearer = await bearerHeaders(asker.id);
    expect((await callRoute(route(questionsApi), { path: "/api/questions", headers: bearer })).status).toBe(404);
    const api = await callRoute(route(questionsApi), {
      path: "/api/questions",
      json: { body: "Is the raise still open?" },
      headers: bearer,
    });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ message: "Not found." });
    const empty = await callRoute(route(questionsApi), { path: "/api/questions", json: { body: "" }, headers: bearer });
    expect(empty.status).toBe(404);
    const adminBearer = await bearerHeaders((await admin()).id);
    expect((await callRoute(route(queueApi), { path: "/api/questions/queue", headers: adminBearer })).status).toBe(404);
    const adminPage = await sessionHeaders((await admin()).id);
    expect((await callRoute(route(queuePage), { path: "/financing/question-queue", headers: adminPage })).status).toBe(
      404,
    );
    expect(await count("questions")).toBe(0);
    expect(smtp.messages.length).toBe(mailsBefore);
  });
});

describe("questions and answers turned on", () => {
  beforeAll(() => turn({ questions: true }));

  async function ask(userId: string, fields: Record<string, string>) {
    const headers = await sessionHeaders(userId);
    return callRoute(route(questionsPage), {
      path: "/financing/questions",
      ...form(fields),
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
    });
  }

  it("refuses bad questions with a clear 400, storing and mailing nothing, by page and by API", async () => {
    const asker = await investor("nda-signed");
    const before = await count("questions");
    const mailsBefore = smtp.messages.length;
    const cases: [Record<string, string>, RegExp][] = [
      [{ body: "   " }, /Write your question/],
      [{ body: "x".repeat(2001) }, /at most 2,000/],
      [{ body: "About this?", documentId: unreadableId }, /cannot ask about this document/],
      [{ body: "About this?", documentId: "no-such-document" }, /cannot ask about this document/],
      [{ body: "About this?", documentId: readableId, page: "0" }, /page/],
      [{ body: "About this?", documentId: readableId, page: "-1" }, /whole number from 1/],
      [{ body: "About this?", documentId: readableId, page: "1.5" }, /whole number from 1/],
      [{ body: "About this?", documentId: readableId, page: "two" }, /whole number from 1/],
      // The first library's PDF has one page; a video has none; a page needs its document.
      [
        { body: "About this?", documentId: readableId, page: "2" },
        /This document has 1 page: give a page from 1 to 1\./,
      ],
      [{ body: "About this?", documentId: videoId, page: "1" }, /A video has no pages/],
      [{ body: "About this?", page: "1" }, /Choose the document the page is in/],
    ];
    for (const [fields, message] of cases) {
      const page = await ask(asker.id, fields);
      expect(page.status, JSON.stringify(fields)).toBe(400);
      expect(JSON.stringify(await page.json())).toMatch(message);
      const number = Number(fields.page);
      const api = await callRoute(route(questionsApi), {
        path: "/api/questions",
        json: { ...fields, ...(fields.page ? { page: Number.isNaN(number) ? fields.page : number } : {}) },
        headers: await bearerHeaders(asker.id),
      });
      expect(api.status, JSON.stringify(fields)).toBe(400);
      expect((await api.json()).message).toMatch(message);
    }
    expect(await count("questions")).toBe(before);
    expect(smtp.messages.length).toBe(mailsBefore);
  });

  it("refuses an investor whose NDA is not signed", async () => {
    const unsigned = await investor("named");
    const api = await callRoute(route(questionsApi), {
      path: "/api/questions",
      json: { body: "May I ask?" },
      headers: await bearerHeaders(unsigned.id),
    });
    expect(api.status).toBe(403);
    expect((await ask(unsigned.id, { body: "May I ask?" })).status).toBe(403);
  });

  it("mails the question to the firm, answers it privately and publicly, and shows each what is theirs", async () => {
    const asker = await investor("nda-signed");
    const other = await investor("nda-signed");
    const administrator = await admin();
    const asked = await ask(asker.id, { body: "What is the minimum investment?", documentId: readableId, page: "1" });
    expect(asked.status).toBe(302);
    const mail = await smtp.mailTo(firm.mailboxes.investors, "A new question from an investor");
    expect(mail.text).toContain("What is the minimum investment?");
    expect(mail.replyTo).toContain(asker.email);

    const apiAsked = await callRoute(route(questionsApi), {
      path: "/api/questions",
      json: { body: "Who is the transfer agent?" },
      headers: await bearerHeaders(asker.id),
    });
    expect(apiAsked.status).toBe(201);
    const secondId = (await apiAsked.json()).question.id as string;

    const queue = await callRoute(route(queueApi), {
      path: "/api/questions/queue?status=new",
      headers: await bearerHeaders(administrator.id),
    });
    const queued = (await queue.json()).questions as { id: string; askerEmail: string; body: string }[];
    const first = queued.find((question) => question.body === "What is the minimum investment?")!;
    expect(first.askerEmail).toBe(asker.email);

    // Answered on the queue page, privately and published.
    const adminHeaders = await sessionHeaders(administrator.id);
    const answered = await callRoute(route(queuePage), {
      path: "/financing/question-queue",
      ...form({ id: first.id, intent: "answer", privateAnswer: "For you: $25,000.", publishedAnswer: "$25,000." }),
      headers: { ...adminHeaders, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(answered.status).toBe(302);
    const told = await smtp.mailTo(asker.email, "Your question has been answered");
    expect(told.text).toContain("/financing/questions");

    // An empty answer, and an unknown question, are refused.
    const emptyAnswer = await callRoute(route(answerApi), {
      path: `/api/questions/${secondId}/answer`,
      params: { id: secondId },
      json: { privateAnswer: "  " },
      headers: await bearerHeaders(administrator.id),
    });
    expect(emptyAnswer.status).toBe(400);
    const unknown = "00000000-0000-4000-8000-000000000000";
    const unknownAnswer = await callRoute(route(answerApi), {
      path: `/api/questions/${unknown}/answer`,
      params: { id: unknown },
      json: { privateAnswer: "Hello" },
      headers: await bearerHeaders(administrator.id),
    });
    expect(unknownAnswer.status).toBe(404);
    // An investor cannot answer.
    const byInvestor = await callRoute(route(answerApi), {
      path: `/api/questions/${secondId}/answer`,
      params: { id: secondId },
      json: { publishedAnswer: "Me!" },
      headers: await bearerHeaders(other.id),
    });
    expect(byInvestor.status).toBe(403);

    // The asker sees both answers; the other investor sees only the published one, the asker unnamed.
    const mine = await callRoute(route(questionsPage), {
      path: "/financing/questions",
      headers: await sessionHeaders(asker.id),
    });
    const mineData = await mine.json();
    const own = mineData.mine.find((question: { id: string }) => question.id === first.id);
    expect(own).toMatchObject({ privateAnswer: "For you: $25,000.", publishedAnswer: "$25,000.", status: "answered" });

    const theirs = await callRoute(route(questionsPage), {
      path: "/financing/questions",
      headers: await sessionHeaders(other.id),
    });
    const theirsText = JSON.stringify(await theirs.json());
    expect(theirsText).toContain("$25,000.");
    expect(theirsText).not.toContain("For you");
    expect(theirsText).not.toContain(asker.email);
    expect(theirsText).not.toContain("Who is the transfer agent?");
    const otherApi = await callRoute(route(questionsApi), {
      path: "/api/questions",
      headers: await bearerHeaders(other.id),
    });
    expect((await otherApi.json()).questions).toEqual([]);
    const otherPublished = await callRoute(route(publishedApi), {
      path: "/api/questions/published?q=minimum",
      headers: await bearerHeaders(other.id),
    });
    const publishedText = JSON.stringify(await otherPublished.json());
    expect(publishedText).toContain("What is the minimum investment?");
    expect(publishedText).not.toContain(asker.email);
    expect(publishedText).not.toContain("For you");
    // An investor trying another's question by id, to answer or close it, is refused.
    const closeByOther = await callRoute(route(closeApi), {
      path: `/api/questions/${secondId}/close`,
      params: { id: secondId },
      headers: await bearerHeaders(other.id),
      method: "POST",
    });
    expect(closeByOther.status).toBe(403);

    // An edit of the published answer keeps the earlier text.
    const edited = await callRoute(route(answerApi), {
      path: `/api/questions/${first.id}/answer`,
      params: { id: first.id },
      json: { publishedAnswer: "$50,000." },
      headers: await bearerHeaders(administrator.id),
    });
    expect(edited.status).toBe(200);
    const answeredQueue = await callRoute(route(queueApi), {
      path: "/api/questions/queue?status=answered",
      headers: await bearerHeaders(administrator.id),
    });
    const editedQuestion = (await answeredQueue.json()).questions.find((q: { id: string }) => q.id === first.id);
    expect(editedQuestion.publishedAnswer).toBe("$50,000.");
    expect(editedQuestion.history).toMatchObject([{ body: "$25,000." }]);
    const afterEdit = await callRoute(route(publishedApi), {
      path: "/api/questions/published",
      headers: await bearerHeaders(other.id),
    });
    expect((await afterEdit.json()).answers[0]).toMatchObject({ answer: "$50,000.", edited: true });

    // A search that matches nothing finds nothing.
    const noMatch = await callRoute(route(publishedApi), {
      path: "/api/questions/published?q=%25",
      headers: await bearerHeaders(other.id),
    });
    expect((await noMatch.json()).answers).toEqual([]);

    const closed = await callRoute(route(closeApi), {
      path: `/api/questions/${secondId}/close`,
      params: { id: secondId },
      headers: await bearerHeaders(administrator.id),
      method: "POST",
    });
    expect(closed.status).toBe(200);

    // Every step is audited, in words.
    for (const [action, words] of [
      ["question.asked", "Asked the firm a question"],
      ["question.answered", `Answered a question of ${asker.email} privately`],
      ["question.published", "Published an answer to every reader"],
      ["question.answer_edited", "Edited a published answer"],
      ["question.closed", "Closed a question"],
    ] as const) {
      const [row] = await auditActions(action);
      expect(eventInWords(action, { target: row!.target_email, details: {} })).toBe(words);
    }
  });

  it("shows a published answer about a document only to those who can read it", async () => {
    const asker = await investor("nda-signed");
    const administrator = await admin();
    // Asked while the document was readable; then the document is chosen for the asker alone.
    const asked = await callRoute(route(questionsApi), {
      path: "/api/questions",
      json: { body: "Is page 1 final?", documentId: readableId, page: 1 },
      headers: await bearerHeaders(asker.id),
    });
    const id = (await asked.json()).question.id as string;
    await callRoute(route(answerApi), {
      path: `/api/questions/${id}/answer`,
      params: { id },
      json: { publishedAnswer: "Page 1 is final." },
      headers: await bearerHeaders(administrator.id),
    });
    await getDb().updateTable("documents").set({ audience: "chosen" }).where("id", "=", readableId).execute();
    await getDb().insertInto("document_audience").values({ document_id: readableId, user_id: asker.id }).execute();
    try {
      const outsider = await investor("nda-signed");
      const seen = await callRoute(route(publishedApi), {
        path: "/api/questions/published",
        headers: await bearerHeaders(outsider.id),
      });
      expect(JSON.stringify(await seen.json())).not.toContain("Page 1 is final.");
      const reader = await callRoute(route(publishedApi), {
        path: "/api/questions/published",
        headers: await bearerHeaders(asker.id),
      });
      expect(JSON.stringify(await reader.json())).toContain("Page 1 is final.");
    } finally {
      await getDb().updateTable("documents").set({ audience: "signed" }).where("id", "=", readableId).execute();
    }
  });

  it("keeps a question's page: the one asked about, stored and shown with its document", async () => {
    const asker = await investor("nda-signed");
    const asked = await callRoute(route(questionsApi), {
      path: "/api/questions",
      json: { body: "Is the first page final?", documentId: readableId, page: 1 },
      headers: await bearerHeaders(asker.id),
    });
    expect(asked.status).toBe(201);
    expect((await asked.json()).question).toMatchObject({ page: 1, documentTitle: expect.any(String) });
  });

  it(`takes ${QUESTIONS_PER_HOUR.limit} questions an hour from an investor, then answers 429 by page and API, storing and mailing nothing`, async () => {
    const asker = await investor("nda-signed");
    const start = Date.now();
    clock.freeze(start);
    const bearer = await bearerHeaders(asker.id);
    for (let n = 1; n <= QUESTIONS_PER_HOUR.limit; n++) {
      const answer =
        n % 2 === 0
          ? await ask(asker.id, { body: `Question ${n}?` })
          : await callRoute(route(questionsApi), {
              path: "/api/questions",
              json: { body: `Question ${n}?` },
              headers: bearer,
            });
      expect(answer.status, `question ${n}`).toBe(n % 2 === 0 ? 302 : 201);
    }
    await smtp.waitFor((mail) => mail.text.includes(`Question ${QUESTIONS_PER_HOUR.limit}?`));
    const before = await count("questions");
    const mailsBefore = smtp.messages.length;
    const auditBefore = (await auditActions("question.asked")).length;

    const page = await ask(asker.id, { body: "One more?" });
    expect(page.status).toBe(429);
    expect(Number(page.headers.get("Retry-After"))).toBeGreaterThan(0);
    const refusal = (await page.json()).reply;
    expect(refusal.error[""]).toEqual(["You can ask up to 10 questions an hour. Try again in 60 minutes."]);
    // The question is kept in the form, to send again later.
    expect(refusal.initialValue.body).toBe("One more?");

    clock.freeze(start + 59 * 60_000 + 1);
    const api = await callRoute(route(questionsApi), {
      path: "/api/questions",
      json: { body: "One more?" },
      // A new token: the first one's minutes are over.
      headers: await bearerHeaders(asker.id),
    });
    expect(api.status).toBe(429);
    expect(api.headers.get("Retry-After")).toBe("60");
    expect((await api.json()).message).toBe("You can ask up to 10 questions an hour. Try again in a minute.");
    // Another investor's questions are their own.
    const other = await callRoute(route(questionsApi), {
      path: "/api/questions",
      json: { body: "Mine is my first?" },
      headers: await bearerHeaders((await investor("nda-signed")).id),
    });
    expect(other.status).toBe(201);
    expect(await count("questions")).toBe(before + 1);
    expect((await auditActions("question.asked")).length).toBe(auditBefore + 1);
    await smtp.waitFor((mail) => mail.text.includes("Mine is my first?"));
    expect(smtp.messages.filter((mail) => mail.text.includes("One more?"))).toEqual([]);
    expect(smtp.messages.length).toBe(mailsBefore + 1);

    // The hour over, the investor asks again.
    clock.freeze(start + 60 * 60_000);
    expect((await ask(asker.id, { body: "One more?" })).status).toBe(302);
  });
});
