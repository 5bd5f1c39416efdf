import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  json,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { Field, FormErrors } from "~/components/form-field";
import { investorTableLinks } from "~/components/investor-table";
import { VerificationLine } from "~/components/verification-line";
import { ACCREDITATION_CATEGORIES, investorStepsContent } from "~/content/investor-steps";
import { requireAdmin } from "~/http/auth.server";
import { requireFeaturePage } from "~/http/feature-gate.server";
import { readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { redirectWithSuccess } from "~/http/toast.server";
import { storeVerificationFile, verificationBodyTooLarge } from "~/http/verification-file.server";
import { formatDollars } from "~/lib/dollars";
import { formatRegistrationTime, investorPagePath } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import { indicationsOf } from "~/models/interest/interest.server";
import { investorIdSchema, investorRecord } from "~/models/investors/investor-record.server";
import { verificationSchema } from "~/models/qualification/qualification-schemas.server";
import { qualificationOf, recordVerification } from "~/models/qualification/qualification.server";
import { deleteBlob } from "~/server/blob-store.server";
import styles from "~/styles/administrators.css";

const words = investorStepsContent.verify;
const NO_STORE = { "Cache-Control": "private, no-store" };
const categoryWords = ACCREDITATION_CATEGORIES as Record<string, string>;

export const links: LinksFunction = () => [...investorTableLinks(), { rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => pageMeta(words.heading, investorStepsContent.qualification.description);

function investorIdOf(params: { id?: string }) {
  const id = investorIdSchema.safeParse(params.id);
  if (!id.success) throw new Response(investorStepsContent.errors.notFound, { status: 404 });
  return id.data;
}

/** The investor's statements, the firm's verifications and their indications, with the form to verify. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  await requireFeaturePage("qualification");
  const id = investorIdOf(params);
  const record = await investorRecord(id);
  if (!record) throw new Response(investorStepsContent.errors.notFound, { status: 404 });
  const [qualification, indications] = await Promise.all([qualificationOf(id), indicationsOf(id)]);
  return json(
    {
      investor: { id, email: record.email, name: record.fullName || record.email },
      ...qualification,
      indications,
      today: new Date().toISOString().slice(0, 10),
    },
    { headers: NO_STORE },
  );
}

/** Records a verification, with its PDF if one is sent: a file that is not a PDF is refused, nothing kept. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const actor = await requireAdmin(request);
  await requireFeaturePage("qualification");
  const id = investorIdOf(params);
  const refuse = (status: number, message: string, fields: Record<string, string[]> = {}) =>
    json({ message, fields }, { status, headers: NO_STORE });
  if (verificationBodyTooLarge(request)) return refuse(413, investorStepsContent.errors.fileTooLarge);
  const body = await readFormBody(request);
  if (!body.ok) return refuse(body.status, body.message);
  const { file: _file, ...fields } = Object.fromEntries(body.formData);
  const textOnly = new FormData();
  for (const [name, value] of Object.entries(fields)) if (typeof value === "string") textOnly.set(name, value);
  const submission = parseSubmission(textOnly, verificationSchema);
  if (submission.status !== "success") {
    const reply = submission.reply();
    return refuse(400, Object.values(reply.error).flat()[0] ?? "", reply.error);
  }
  const stored = await storeVerificationFile(body.formData.get("file"));
  if (!stored.ok) return refuse(stored.status, stored.message, { file: [stored.message] });
  const recorded = await recordVerification({
    actor,
    investorId: id,
    input: submission.value,
    file: stored.file,
    ip: context.clientIp,
  }).catch(async (error: unknown) => {
    if (stored.file) await deleteBlob(stored.file.blobId);
    throw error;
  });
  if (!recorded) return refuse(404, investorStepsContent.errors.notFound);
  return redirectWithSuccess(`${investorPagePath(id)}/qualification`, words.recorded);
}

export default function InvestorQualificationPage() {
  const { investor, statements, verifications, indications, today } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  return (
    <section className="administrators" aria-labelledby="verify-heading">
      <p>
        <Link to={investorPagePath(investor.id)}>{investor.name}</Link>
      </p>
      <h1 id="verify-heading">
        {words.heading}: {investor.name}
      </h1>
      <h2>{words.statement}</h2>
      {statements.length === 0 ? <p>{words.none}</p> : null}
      <ul>
        {statements.map((statement) => (
          <li key={statement.recordedAt}>
            {categoryWords[statement.category] ?? statement.category} ({statement.statedOn}),{" "}
            {formatRegistrationTime(statement.recordedAt)}
          </li>
        ))}
      </ul>
      <h2>{investorStepsContent.qualification.verification}</h2>
      <VerificationLine verification={verifications[0] ?? null} />
      {verifications.length > 1 ? (
        <ul>
          {verifications.slice(1).map((verification) => (
            <li key={verification.id}>
              <VerificationLine verification={verification} />
            </li>
          ))}
        </ul>
      ) : null}
      <h2>{investorStepsContent.interest.current}</h2>
      {indications.length === 0 ? <p>{investorStepsContent.interest.none}</p> : null}
      <ul>
        {indications.map((indication) => (
          <li key={indication.at}>
            {indication.amount === null ? investorStepsContent.interest.isWithdrawn : formatDollars(indication.amount)},{" "}
            {formatRegistrationTime(indication.at)}
          </li>
        ))}
      </ul>
      <h2>{words.record}</h2>
      {refusal ? (
        <div className="form-error" role="alert">
          <p>{refusal.message}</p>
        </div>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="administrators__invite">
        <div className="field">
          <label htmlFor="verification-method">{words.method}</label>
          <select id="verification-method" name="method" required>
            {Object.entries(investorStepsContent.methods).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <FormErrors id="verification-method-error" errors={refusal?.fields.method} />
        </div>
        <Field
          id="verification-date"
          name="verifiedOn"
          label={words.verifiedOn}
          type="date"
          required
          max={today}
          defaultValue={today}
          errors={refusal?.fields.verifiedOn}
        />
        <Field
          id="verification-note"
          name="note"
          label={words.note}
          multiline
          maxLength={1000}
          errors={refusal?.fields.note}
        />
        <Field
          id="verification-file"
          name="file"
          label={words.file}
          type="file"
          accept="application/pdf"
          errors={refusal?.fields.file}
        />
        <button type="submit" className="button">
          {words.submit}
        </button>
      </Form>
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="administrators" />;
