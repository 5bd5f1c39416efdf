import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormErrors } from "~/components/form-field";
import { MaterialsRefusal } from "~/components/portal-refusal";
import { VerificationLine } from "~/components/verification-line";
import { ACCREDITATION_CATEGORIES, investorStepsContent } from "~/content/investor-steps";
import { parseSubmission } from "~/http/form-submission.server";
import { readInvestorStepForm, refuseStep, requireStepReader } from "~/http/investor-step-gate.server";
import { privateJson } from "~/http/private-json.server";
import { redirectWithSuccess } from "~/http/toast.server";
import { formatRegistrationTime } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { qualificationStatementSchema } from "~/models/qualification/qualification-schemas.server";
import { qualificationOf, stateQualification } from "~/models/qualification/qualification.server";
import portalStyles from "~/styles/portal.css";

const words = investorStepsContent.qualification;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStepReader(request, "qualification");
  return privateJson({ ...(await qualificationOf(user.id)), today: new Date().toISOString().slice(0, 10) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readInvestorStepForm(request, "qualification");
  if (form.refusal) return form.refusal;
  const submission = parseSubmission(form.formData, qualificationStatementSchema);
  if (submission.status !== "success") return refuseStep(400, submission.reply());
  await stateQualification({ user: form.user, input: submission.value, ip: context.clientIp });
  return redirectWithSuccess("/financing/qualification", words.saved);
}

const categoryWords = ACCREDITATION_CATEGORIES as Record<string, string>;

export default function QualificationPage() {
  const { statements, verifications, today } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const errors = refusal?.reply.error;
  const [current, ...earlier] = statements;
  const chosen = refusal?.reply.initialValue.category ?? current?.category;
  return (
    <section className="portal-status" aria-labelledby="qualification-heading">
      <h1 id="qualification-heading">{words.heading}</h1>
      <p>
        <Link to="/financing/materials">{investorStepsContent.back}</Link>
      </p>
      <p>{words.intro}</p>
      <h2>{words.current}</h2>
      <p>{current ? `${categoryWords[current.category] ?? current.category} (${current.statedOn})` : words.none}</p>
      <h2>{words.verification}</h2>
      <VerificationLine verification={verifications[0] ?? null} />
      <Form method="post">
        <FormErrors id="qualification-form-error" errors={errors?.[""]} />
        <fieldset aria-describedby={errors?.category ? "qualification-category-error" : undefined}>
          <legend>{words.category}</legend>
          {Object.entries(ACCREDITATION_CATEGORIES).map(([value, label]) => (
            <p key={value}>
              <label>
                <input type="radio" name="category" value={value} defaultChecked={chosen === value} required /> {label}
              </label>
            </p>
          ))}
          <FormErrors id="qualification-category-error" errors={errors?.category} />
        </fieldset>
        <Field
          id="qualification-stated-on"
          name="statedOn"
          label={words.statedOn}
          type="date"
          required
          max={today}
          defaultValue={refusal?.reply.initialValue.statedOn ?? today}
          errors={errors?.statedOn}
        />
        <button type="submit" className="button">
          {words.submit}
        </button>
      </Form>
      {earlier.length > 0 ? (
        <>
          <h2>{words.history}</h2>
          <ul>
            {earlier.map((statement) => (
              <li key={statement.recordedAt}>
                {categoryWords[statement.category] ?? statement.category} ({statement.statedOn}),{" "}
                {formatRegistrationTime(statement.recordedAt)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

export const ErrorBoundary = MaterialsRefusal;
