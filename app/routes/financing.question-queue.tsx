import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  json,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { Field } from "~/components/form-field";
import { investorTableLinks } from "~/components/investor-table";
import { QUESTION_STATUSES, questionsContent } from "~/content/questions";
import { requireAdmin } from "~/http/auth.server";
import { requireFeaturePage } from "~/http/feature-gate.server";
import { readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { redirectWithSuccess } from "~/http/toast.server";
import { formatRegistrationTime } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { answerQuestion, closeQuestion, listQueue } from "~/models/questions/question-queue.server";
import {
  answerQuestionSchema,
  closeQuestionSchema,
  queueQuerySchema,
} from "~/models/questions/question-schemas.server";
import styles from "~/styles/administrators.css";

const QUEUE_PATH = "/financing/question-queue";
const NO_STORE = { "Cache-Control": "private, no-store" };
const words = questionsContent.queue;

export const links: LinksFunction = () => [...investorTableLinks(), { rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  await requireFeaturePage("questions");
  const query = queueQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) throw new Response(questionsContent.errors.statusInvalid, { status: 400 });
  const page = await listQueue(query.data);
  return json({ ...page, status: query.data.status }, { headers: NO_STORE });
}

/** Answer (private, published or both) or close; a refusal says why and changes nothing. */
export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireAdmin(request);
  await requireFeaturePage("questions");
  const refuse = (status: number, message: string, id?: string) => json({ message, id }, { status, headers: NO_STORE });
  const body = await readFormBody(request);
  if (!body.ok) return refuse(body.status, body.message);
  const ip = context.clientIp;
  const back = `${QUEUE_PATH}?status=${String(body.formData.get("status") ?? "new").replace(/[^a-z]/g, "")}`;
  if (body.formData.get("intent") === "close") {
    const submission = parseSubmission(body.formData, closeQuestionSchema);
    if (submission.status !== "success") return refuse(400, Object.values(submission.reply().error).flat()[0] ?? "");
    const outcome = await closeQuestion({ actor, id: submission.value.id, ip });
    if (!outcome.ok) return refuse(outcome.status, outcome.message);
    return redirectWithSuccess(back, words.closed);
  }
  const submission = parseSubmission(body.formData, answerQuestionSchema);
  const id = String(body.formData.get("id") ?? "");
  if (submission.status !== "success") {
    return refuse(400, Object.values(submission.reply().error).flat()[0] ?? "", id);
  }
  const outcome = await answerQuestion({ actor, input: submission.value, ip });
  if (!outcome.ok) return refuse(outcome.status, outcome.message, id);
  return redirectWithSuccess(back, words.answered);
}

export default function QuestionQueuePage() {
  const { questions, status, nextBefore } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  return (
    <section className="administrators" aria-labelledby="queue-heading">
      <h1 id="queue-heading">{words.heading}</h1>
      <p>
        <Link to="/financing">{words.back}</Link>
      </p>
      <nav aria-label={words.statusLabel}>
        <ul className="administrators__tabs">
          {QUESTION_STATUSES.map((each) => (
            <li key={each}>
              <Link to={`${QUEUE_PATH}?status=${each}`} aria-current={each === status ? "page" : undefined}>
                {words.statuses[each]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {refusal ? (
        <div className="form-error" role="alert">
          <p>{refusal.message}</p>
        </div>
      ) : null}
      {questions.length === 0 ? <p>{words.empty}</p> : null}
      <ul className="administrators__list">
        {questions.map((question) => (
          <li key={question.id} className="administrators__card">
            <p className="administrators__email">
              <strong>{words.from(question.askerEmail)}</strong> · {formatRegistrationTime(question.askedAt)}
              {question.documentTitle
                ? ` · ${questionsContent.mine.about(question.documentTitle, question.page)}`
                : null}
            </p>
            <p className="questions__body">{question.body}</p>
            <Form method="post" className="administrators__invite">
              <input type="hidden" name="id" value={question.id} />
              <input type="hidden" name="status" value={status} />
              <Field
                id={`private-${question.id}`}
                name="privateAnswer"
                label={words.privateAnswer}
                multiline
                maxLength={5000}
                defaultValue={question.privateAnswer ?? ""}
              />
              <Field
                id={`published-${question.id}`}
                name="publishedAnswer"
                label={words.publishedAnswer}
                multiline
                maxLength={5000}
                defaultValue={question.publishedAnswer ?? ""}
              />
              <button type="submit" className="button" name="intent" value="answer">
                {words.submit}
              </button>
              {question.status !== "closed" ? (
                <button type="submit" className="button button--secondary" name="intent" value="close">
                  {words.close}
                </button>
              ) : null}
            </Form>
            {question.history.length > 0 ? (
              <details>
                <summary>{words.history}</summary>
                <ol>
                  {question.history.map((edit) => (
                    <li key={edit.replacedAt}>
                      {formatRegistrationTime(edit.replacedAt)}: {edit.body}
                    </li>
                  ))}
                </ol>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
      {nextBefore !== null ? (
        <p>
          <Link to={`${QUEUE_PATH}?status=${status}&before=${nextBefore}`}>{words.older}</Link>
        </p>
      ) : null}
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="administrators" />;
