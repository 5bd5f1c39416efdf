import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { Field, FormErrors } from "~/components/form-field";
import { investorTableLinks } from "~/components/investor-table";
import { RefusalAlert, SudoNotice } from "~/components/sudo-notice";
import { portalFeaturesContent as words } from "~/content/portal-features";
import { requireAdminSession } from "~/http/auth.server";
import { parseSubmission } from "~/http/form-submission.server";
import { privateJson } from "~/http/private-json.server";
import { readSudoForm, type SudoFormRefusal } from "~/http/sudo-form.server";
import { sudoState } from "~/http/sudo.server";
import { redirectWithSuccess } from "~/http/toast.server";
import type { FormReply } from "~/lib/form-reply";
import { pageMeta } from "~/lib/meta";
import { portalFeaturesSchema, readPortalFeatures, setPortalFeatures } from "~/models/features/portal-features.server";
import styles from "~/styles/administrators.css";

const SETTINGS_PATH = "/financing/settings";

export const links: LinksFunction = () => [...investorTableLinks(), { rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireAdminSession(request);
  return privateJson({ features: await readPortalFeatures(), sudo: sudoState(session, SETTINGS_PATH) });
}

type Refusal = SudoFormRefusal & { reply?: FormReply };

/** Saves the switches: only in "sudo mode", else 403 and nothing changes. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readSudoForm(request, SETTINGS_PATH);
  const refuse = (status: number, refusal: Refusal) => privateJson(refusal, status);
  if (!form.ok) return refuse(form.status, form.refusal);
  const submission = parseSubmission(form.formData, portalFeaturesSchema);
  if (submission.status !== "success") {
    const reply = submission.reply();
    return refuse(400, { message: Object.values(reply.error).flat()[0] ?? "", reply });
  }
  await setPortalFeatures({ actor: form.session.user, values: submission.value, ip: context.clientIp });
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
      {refusal ? <RefusalAlert {...refusal} /> : null}
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
