import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormErrors } from "~/components/form-field";
import { MaterialsRefusal } from "~/components/portal-refusal";
import { investorStepsContent } from "~/content/investor-steps";
import { parseSubmission } from "~/http/form-submission.server";
import { readInvestorStepForm, refuseStep, requireStepReader } from "~/http/investor-step-gate.server";
import { privateJson } from "~/http/private-json.server";
import { redirectWithSuccess } from "~/http/toast.server";
import { formatDollars } from "~/lib/dollars";
import { formatRegistrationTime } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { interestNoticeOf, readPortalFeatures } from "~/models/features/portal-features.server";
import { interestSchema, type InterestInput } from "~/models/interest/interest-schemas.server";
import { indicateInterest, indicationsOf } from "~/models/interest/interest.server";
import portalStyles from "~/styles/portal.css";

const words = investorStepsContent.interest;
const INTEREST_PATH = "/financing/interest";
/** The fields in whole dollars: the amount, and the optional range around it. */
const AMOUNTS = ["amount", "low", "high"] as const;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStepReader(request, "interest");
  const [indications, features] = await Promise.all([indicationsOf(user.id), readPortalFeatures()]);
  return privateJson({ indications, notice: interestNoticeOf(features) });
}

/** Save an indication, or withdraw it (`intent=withdraw`); each is kept. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readInvestorStepForm(request, "interest");
  if (form.refusal) return form.refusal;
  const withdraw = form.formData.get("intent") === "withdraw";
  let input: InterestInput | null = null;
  if (!withdraw) {
    const submission = parseSubmission(form.formData, interestSchema);
    if (submission.status !== "success") return refuseStep(400, submission.reply());
    input = submission.value;
  }
  await indicateInterest({ user: form.user, input, ip: context.clientIp });
  return redirectWithSuccess(INTEREST_PATH, withdraw ? words.withdrawn : words.saved);
}

function indicationText(indication: { amount: number | null; low: number | null; high: number | null }) {
  if (indication.amount === null) return words.isWithdrawn;
  const range =
    indication.low !== null && indication.high !== null
      ? ` (${words.range(formatDollars(indication.low), formatDollars(indication.high))})`
      : "";
  return `${formatDollars(indication.amount)}${range}`;
}

export default function InterestPage() {
  const { indications, notice } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const errors = refusal?.reply.error;
  const values = refusal?.reply.initialValue;
  const [current, ...earlier] = indications;
  const standing = current && !current.withdrawn ? current : null;
  return (
    <section className="portal-status" aria-labelledby="interest-heading">
      <h1 id="interest-heading">{words.heading}</h1>
      <p>
        <Link to="/financing/materials">{investorStepsContent.back}</Link>
      </p>
      <p className="interest__notice">
        <strong>{notice}</strong>
      </p>
      <h2>{words.current}</h2>
      <p>{current ? indicationText(current) : words.none}</p>
      {standing?.note ? <p>{standing.note}</p> : null}
      <Form method="post">
        <FormErrors id="interest-form-error" errors={errors?.[""]} />
        {AMOUNTS.map((name) => (
          <Field
            key={name}
            id={`interest-${name}`}
            name={name}
            label={words[name]}
            inputMode="numeric"
            required={name === "amount"}
            defaultValue={values?.[name] ?? (standing?.[name] ? String(standing[name]) : "")}
            errors={errors?.[name]}
          />
        ))}
        <Field
          id="interest-note"
          name="note"
          label={words.note}
          multiline
          maxLength={1000}
          defaultValue={values?.note ?? standing?.note ?? ""}
          errors={errors?.note}
        />
        <button type="submit" className="button">
          {words.submit}
        </button>
      </Form>
      {standing ? (
        <Form method="post">
          <input type="hidden" name="intent" value="withdraw" />
          <button type="submit" className="button button--secondary">
            {words.withdraw}
          </button>
        </Form>
      ) : null}
      {earlier.length > 0 ? (
        <>
          <h2>{words.history}</h2>
          <ul>
            {earlier.map((indication) => (
              <li key={indication.at}>
                {indicationText(indication)}, {formatRegistrationTime(indication.at)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

export const ErrorBoundary = MaterialsRefusal;
