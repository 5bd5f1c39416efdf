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
import { SudoNotice } from "~/components/sudo-notice";
import { portalFeaturesContent as words } from "~/content/portal-features";
import { sudoContent } from "~/content/sudo";
import { requireAdminSession } from "~/http/auth.server";
import { readFormBody } from "~/http/form-body.server";
import { parseSubmission } from "~/http/form-submission.server";
import { confirmHref, sudoRefusal, sudoState } from "~/http/sudo.server";
import { redirectWithSuccess } from "~/http/toast.server";
import type { FormReply } from "~/lib/form-reply";
import { pageMeta } from "~/lib/meta";
import { portalFeaturesSchema, readPortalFeatures, setPortalFeatures } from "~/models/features/portal-features.server";
import styles from "~/styles/administrators.css";

const SETTINGS_PATH = "/financing/settings";
const NO_STORE = { "Cache-Control": "private, no-store" };

export const links: LinksFunction = () => [...investorTableLinks(), { rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireAdminSession(request);
  return json({ features: await readPortalFeatures(), sudo: sudoState(session, SETTINGS_PATH) }, { headers: NO_STORE });
}

type Refusal = { message: string; confirmHref?: string; reply?: FormReply };

/** Saves the switches: only in "sudo mode", else 403 and nothing changes. */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireAdminSession(request);
  const refuse = (status: number, refusal: Refusal) => json(refusal, { status, headers: NO_STORE });
  const body = await readFormBody(request);
  if (!body.ok) return refuse(body.status, { message: body.message });
  const notConfirmed = sudoRefusal(session);
  if (notConfirmed) return refuse(403, { message: notConfirmed.message, confirmHref: confirmHref(SETTINGS_PATH) });
  const submission = parseSubmission(body.formData, portalFeaturesSchema);
  if (submission.status !== "success") {
    const reply = submission.reply();
    return refuse(400, { message: Object.values(reply.error).flat()[0] ?? "", reply });
  }
  await setPortalFeatures({ actor: session.user, values: submission.value, ip: context.clientIp });
  return redirectWithSuccess(SETTINGS_PATH, words.saved);
}

export default function SettingsPage() {
  const { features, sudo } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const errors = refusal?.reply?.error;
  return (
    <section className="administrators" aria-labelledby="settings-heading">
      <h1 id="settings-heading">{words.heading}</h1>
      <p>
        <Link to="/financing">{words.back}</Link>
      </p>
      <p>{words.intro}</p>
      <SudoNotice sudo={sudo} notice={words.notice} />
      {refusal ? (
        <div className="form-error" role="alert">
          <p>
            {refusal.message}{" "}
            {refusal.confirmHref ? <Link to={refusal.confirmHref}>{sudoContent.confirmLink}</Link> : null}
          </p>
        </div>
      ) : null}
      <Form method="post" className="settings-form">
        <FormErrors id="settings-form-error" errors={errors?.[""]} />
        <fieldset>
          <legend>{words.heading}</legend>
          {(["questions", "qualification", "interest"] as const).map((name) => (
            <p key={name}>
              <label>
                <input type="checkbox" name={name} defaultChecked={features[name]} /> {words.fields[name]}
              </label>
            </p>
          ))}
        </fieldset>
        <Field
          id="settings-interest-notice"
          name="interestNotice"
          label={words.fields.interestNotice}
          multiline
          maxLength={2000}
          defaultValue={features.interestNotice}
          errors={errors?.interestNotice}
        />
        <Field
          id="settings-verification-days"
          name="verificationDays"
          label={words.fields.verificationDays}
          type="number"
          min={1}
          max={3650}
          required
          defaultValue={String(features.verificationDays)}
          errors={errors?.verificationDays}
        />
        <button type="submit" className="button">
          {words.submit}
        </button>
      </Form>
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="administrators" />;
