import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  json,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormErrors } from "~/components/form-field";
import { SudoNotice } from "~/components/sudo-notice";
import { ndaAdminContent } from "~/content/nda";
import { requireAdminSession } from "~/http/auth.server";
import { readNdaAdminForm } from "~/http/nda-admin-form.server";
import { sudoRefusal, sudoState } from "~/http/sudo.server";
import { redirectWithSuccess } from "~/http/toast.server";
import { pageMeta } from "~/lib/meta";
import { countersignNda, waitingForCountersignature } from "~/models/nda/nda-completion.server";
import { addNdaTemplate, currentNdaTemplate } from "~/models/nda/nda-templates.server";
import { verifySignedNda } from "~/models/nda/nda-verify.server";
import { getEnv } from "~/server/env.server";
import portalStyles from "~/styles/portal.css";

const PATH = "/financing/nda";
const words = ndaAdminContent;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalStyles }];
export const meta: MetaFunction = () => pageMeta(words.title, words.verifyIntro);

/** The firm's NDA: its template, who waits for the countersignature, and the verification of a signed file. */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireAdminSession(request);
  const [template, waiting] = await Promise.all([currentNdaTemplate(), waitingForCountersignature()]);
  return json({
    template: template && { number: template.number, pageCount: template.pageCount },
    waiting: waiting.map((row) => ({ ...row, signedAt: new Date(row.signedAt).toISOString() })),
    oneSided: getEnv().nda.oneSided,
    sudo: sudoState(session, PATH),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireAdminSession(request);
  const actor = session.user;
  const form = await readNdaAdminForm(request);
  if (!form.ok) return json({ message: form.message, verification: null }, { status: form.status });
  if (form.intent === "countersign") {
    const sudo = sudoRefusal(session);
    if (sudo) return json({ message: sudo.message, verification: null }, { status: sudo.status });
    const done = await countersignNda(actor, form.investorId, context.clientIp);
    if (!done.ok) return json({ message: done.message, verification: null }, { status: done.status });
    return redirectWithSuccess(PATH, words.countersigned(form.investorEmail));
  }
  if (form.intent === "upload") {
    const added = await addNdaTemplate(form.file, actor);
    if (!added.ok) return json({ message: added.message, verification: null }, { status: added.status });
    return redirectWithSuccess(PATH, words.uploaded(added.template.number));
  }
  const verified = await verifySignedNda(form.file.bytes, actor, context.clientIp);
  if (!verified.ok) return json({ message: verified.message, verification: null }, { status: verified.status });
  return json({ message: null, verification: verified.verification });
}

export default function NdaAdminPage() {
  const { template, waiting, oneSided, sudo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const verification = result?.verification;
  return (
    <section className="nda-admin" aria-labelledby="nda-admin-heading">
      <h1 id="nda-admin-heading">{words.title}</h1>
      <FormErrors id="nda-admin-error" errors={result?.message ? [result.message] : undefined} />
      <h2>{words.template}</h2>
      <p>{template ? words.current(template.number, template.pageCount) : words.noTemplate}</p>
      <PdfForm intent="upload" label={words.file} button={words.uploadButton} />

      <h2 id="nda-waiting-heading">{words.waiting}</h2>
      {oneSided ? <p>{words.oneSided}</p> : null}
      <p>{waiting.length === 0 ? words.waitingNone : words.waitingCount(waiting.length)}</p>
      {waiting.length > 0 ? (
        <>
          <SudoNotice sudo={sudo} />
          <ul aria-labelledby="nda-waiting-heading">
            {waiting.map((row) => (
              <li key={row.userId}>
                <Link to={`/financing/investors/${row.userId}`}>{row.email}</Link> (
                {row.signedAt.slice(0, 16).replace("T", " ")} UTC)
                <Form method="post" encType="multipart/form-data">
                  <input type="hidden" name="investorId" value={row.userId} />
                  <input type="hidden" name="investorEmail" value={row.email} />
                  <button type="submit" name="intent" value="countersign" className="button">
                    {words.countersign}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </>
      ) : null}

      <h2>{words.verify}</h2>
      <p>{words.verifyIntro}</p>
      <PdfForm intent="verify" label={words.verifyFile} button={words.verifyButton} />
      {verification ? (
        <div role="status" className="nda-admin__verdict">
          <p>
            {verification.match
              ? words.verdict.match(verification.match.email, verification.match.kind)
              : words.verdict.noMatch}
          </p>
          <p>{words.verdict.seal[verification.seal]}</p>
          <p>SHA-256: {verification.sha256}</p>
        </div>
      ) : null}
    </section>
  );
}

/** A form of one PDF and its button: the template's upload, or a file to verify. */
function PdfForm({ intent, label, button }: { intent: "upload" | "verify"; label: string; button: string }) {
  return (
    <Form method="post" encType="multipart/form-data" className={`nda-admin__${intent}`}>
      <label htmlFor={`nda-${intent}-file`}>{label}</label>
      <input id={`nda-${intent}-file`} type="file" name="file" accept="application/pdf" required />
      <button type="submit" name="intent" value={intent} className="button">
        {button}
      </button>
    </Form>
  );
}
