import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormErrors } from "~/components/form-field";
import { MaterialsRefusal } from "~/components/portal-refusal";
import { questionsContent as words } from "~/content/questions";
import { parseSubmission } from "~/http/form-submission.server";
import { readInvestorStepForm, refuseStep, requireStepReader } from "~/http/investor-step-gate.server";
import { privateJson } from "~/http/private-json.server";
import { keepRetryAfter } from "~/http/retry-after";
import { redirectWithSuccess } from "~/http/toast.server";
import { formatRegistrationTime } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { listOpenableDocuments } from "~/models/library/library-access.server";
import { askQuestionSchema, publishedQuerySchema } from "~/models/questions/question-schemas.server";
import { askQuestion, listOwnQuestions, listPublishedAnswers } from "~/models/questions/questions.server";
import portalStyles from "~/styles/portal.css";

const QUESTIONS_PATH = "/financing/questions";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

export const headers = keepRetryAfter;

/** The investor's own thread, the form to ask, and the published answers (searchable). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStepReader(request, "questions");
  const query = publishedQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const q = query.success ? query.data.q : "";
  const [mine, published, documents] = await Promise.all([
    user.role.name === "investor" ? listOwnQuestions(user.id) : Promise.resolve([]),
    listPublishedAnswers(user, q),
    listOpenableDocuments(user, null),
  ]);
  return privateJson({
    mine,
    published,
    q,
    canAsk: user.role.name === "investor",
    documents: documents.map((document) => ({ id: document.id, title: document.title })),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The model refuses anyone but an investor, in its own words, once the form is read.
  const form = await readInvestorStepForm(request, "questions", { investorsOnly: false });
  if (form.refusal) return form.refusal;
  const submission = parseSubmission(form.formData, askQuestionSchema);
  if (submission.status !== "success") return refuseStep(400, submission.reply());
  const outcome = await askQuestion({ user: form.user, input: submission.value, ip: context.clientIp });
  if (!outcome.ok) {
    const reply = submission.reply({ fieldErrors: { [outcome.field ?? ""]: [outcome.message] } });
    return refuseStep(outcome.status, reply, outcome.retryAfterSeconds);
  }
  return redirectWithSuccess(QUESTIONS_PATH, words.ask.sent);
}

export default function QuestionsPage() {
  const { mine, published, q, canAsk, documents } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const errors = refusal?.reply.error;
  const values = refusal?.reply.initialValue;
  return (
    <section className="portal-status questions" aria-labelledby="questions-heading">
      <h1 id="questions-heading">{words.heading}</h1>
      <p>
        <Link to="/financing/materials">{words.backToMaterials}</Link>
      </p>
      {canAsk ? (
        <>
          <h2>{words.ask.heading}</h2>
          <Form method="post" className="questions__ask">
            <FormErrors id="ask-form-error" errors={errors?.[""]} />
            <Field
              id="question-body"
              name="body"
              label={words.ask.body}
              multiline
              required
              maxLength={2000}
              defaultValue={values?.body}
              errors={errors?.body}
            />
            <div className="field">
              <label htmlFor="question-document">{words.ask.document}</label>
              <select id="question-document" name="documentId" defaultValue={values?.documentId ?? ""}>
                <option value="">{words.ask.noDocument}</option>
                {documents.map((document) => (
                  <option key={document.id} value={document.id}>
                    {document.title}
                  </option>
                ))}
              </select>
              <FormErrors id="question-document-error" errors={errors?.documentId} />
            </div>
            <Field
              id="question-page"
              name="page"
              label={words.ask.page}
              type="number"
              min={1}
              max={10000}
              defaultValue={values?.page}
              errors={errors?.page}
            />
            <button type="submit" className="button">
              {words.ask.submit}
            </button>
          </Form>

          <h2>{words.mine.heading}</h2>
          {mine.length === 0 ? (
            <p>{words.mine.empty}</p>
          ) : (
            <ul className="questions__list">
              {mine.map((question) => (
                <li key={question.id} className="questions__item">
                  <p className="questions__meta">
                    {words.mine.asked(formatRegistrationTime(question.askedAt))} · {words.mine.status[question.status]}
                    {question.documentTitle ? ` · ${words.mine.about(question.documentTitle, question.page)}` : null}
                  </p>
                  <p className="questions__body">{question.body}</p>
                  {question.privateAnswer ? (
                    <>
                      <h3>{words.mine.privateAnswer}</h3>
                      <p className="questions__body">{question.privateAnswer}</p>
                    </>
                  ) : null}
                  {question.publishedAnswer ? (
                    <>
                      <h3>{words.mine.publishedAnswer}</h3>
                      <p className="questions__body">{question.publishedAnswer}</p>
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}

      <h2 id="published-heading">{words.published.heading}</h2>
      <p>{words.published.intro}</p>
      <Form method="get" role="search" aria-labelledby="published-heading" className="questions__search">
        <label htmlFor="published-search">{words.published.search}</label>
        <input id="published-search" type="search" name="q" defaultValue={q} maxLength={200} />
        <button type="submit" className="button">
          {words.published.searchSubmit}
        </button>
      </Form>
      {published.length === 0 ? (
        <p>{q ? words.published.noMatch : words.published.empty}</p>
      ) : (
        <ul className="questions__list">
          {published.map((answer) => (
            <li key={answer.id} className="questions__item">
              <p className="questions__meta">
                {formatRegistrationTime(answer.publishedAt)}
                {answer.documentTitle ? ` · ${words.mine.about(answer.documentTitle, answer.page)}` : null}
                {answer.edited ? ` · ${words.published.edited}` : null}
              </p>
              <h3 className="questions__body">{answer.question}</h3>
              <p className="questions__body">{answer.answer}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export const ErrorBoundary = MaterialsRefusal;
