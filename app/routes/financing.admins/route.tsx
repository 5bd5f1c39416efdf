import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminRefusal } from "~/components/admin-refusal";
import { EmailField } from "~/components/auth-form";
import { FormErrors } from "~/components/form-field";
import { investorTableLinks } from "~/components/investor-table";
import { RefusalAlert, SudoNotice } from "~/components/sudo-notice";
import { administratorNotices, administratorsPage as words } from "~/content/administrators";
import { useLiveValidation } from "~/hooks/use-live-validation";
import { LOGIN_PATH, requireAdminSession } from "~/http/auth.server";
import { formLevelBeyond, parseSubmission } from "~/http/form-submission.server";
import { privateJson } from "~/http/private-json.server";
import { readSudoForm, type SudoFormRefusal } from "~/http/sudo-form.server";
import { sudoState } from "~/http/sudo.server";
import { redirectWithSuccess } from "~/http/toast.server";
import type { FormReply } from "~/lib/form-reply";
import { formatRegistrationTime } from "~/lib/investor-table";
import { pageMeta } from "~/lib/meta";
import {
  inviteAdministrator,
  listPendingInvitations,
  revokeInvitation,
} from "~/models/administrators/admin-invitation.server";
import {
  administratorActionSchema,
  inviteAdministratorSchema,
} from "~/models/administrators/administrator-schemas.server";
import {
  listAdministrators,
  removeAdministrator,
  resetAdministratorFactor,
  type AdministratorEntry,
} from "~/models/administrators/administrators.server";
import styles from "~/styles/administrators.css";

const ADMINS_PATH = "/financing/admins";
const INVITE_FORM = "invite-administrator";

export const links: LinksFunction = () => [...investorTableLinks(), { rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => pageMeta(words.title, words.description);

/** The administrators, their second factor, last sign-in and maker, and the pending invitations. */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireAdminSession(request);
  const [administrators, invitations] = await Promise.all([listAdministrators(), listPendingInvitations()]);
  return privateJson({
    administrators,
    invitations,
    me: session.user.id,
    // The last administrator cannot be removed (the action refuses it too): their card offers no Remove.
    removalOffered: administrators.length > 1,
    sudo: sudoState(session, ADMINS_PATH),
  });
}

type Refusal = SudoFormRefusal & {
  /** The invitation form's messages and values. */
  invite?: FormReply;
};

function refuse(status: number, refusal: Refusal) {
  return privateJson(refusal, status);
}

/**
 * Invite, revoke, remove, reset: each needs "sudo mode" (a password and second factor confirmed in
 * this session in the last ten minutes), else 403 and nothing changes.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readSudoForm(request, ADMINS_PATH);
  if (!form.ok) return refuse(form.status, form.refusal);
  const { formData } = form;
  const actor = form.session.user;
  const ip = context.clientIp;

  if (formData.get("intent") === "invite") {
    const submission = parseSubmission(formData, inviteAdministratorSchema);
    if (submission.status !== "success") {
      const invite = formLevelBeyond(submission.reply(), ["email"]);
      return refuse(400, { message: Object.values(invite.error).flat()[0] ?? "", invite });
    }
    const outcome = await inviteAdministrator({ actor, email: submission.value.email, ip });
    if (!outcome.ok) {
      return refuse(outcome.status, {
        message: outcome.message,
        invite: submission.reply({ fieldErrors: { email: [outcome.message] } }),
      });
    }
    return redirectWithSuccess(ADMINS_PATH, administratorNotices.invited(outcome.email));
  }

  const submission = parseSubmission(formData, administratorActionSchema);
  if (submission.status !== "success") {
    return refuse(400, { message: Object.values(submission.reply().error).flat()[0] ?? "" });
  }
  const { intent, id } = submission.value;
  if (intent === "revoke") {
    const outcome = await revokeInvitation({ actor, id, ip });
    if (!outcome.ok) return refuse(outcome.status, { message: outcome.message });
    return redirectWithSuccess(ADMINS_PATH, administratorNotices.revoked(outcome.email));
  }
  if (intent === "remove") {
    const outcome = await removeAdministrator({ actor, id, ip });
    if (!outcome.ok) return refuse(outcome.status, { message: outcome.message });
    // Removing oneself deleted one's own account, and with it this session.
    return redirectWithSuccess(
      outcome.removedSelf ? LOGIN_PATH : ADMINS_PATH,
      administratorNotices.removed(outcome.email),
    );
  }
  const outcome = await resetAdministratorFactor({ actor, id, ip });
  if (!outcome.ok) return refuse(outcome.status, { message: outcome.message });
  return redirectWithSuccess(
    outcome.resetSelf ? LOGIN_PATH : ADMINS_PATH,
    administratorNotices.factorReset(outcome.email),
  );
}

function createdByText(createdBy: AdministratorEntry["createdBy"]) {
  if (createdBy.via === "create-admin") return words.createdBy.createAdmin;
  if (createdBy.via === "invitation") return createdBy.email ?? words.createdBy.removed;
  return words.createdBy.unknown;
}

function RowAction({
  intent,
  id,
  label,
  name,
  confirmLabel,
}: {
  intent: string;
  id: string;
  label: string;
  name: string;
  /** A box to tick before the button works (a removal). */
  confirmLabel?: string;
}) {
  return (
    <Form method="post" className="administrators__action">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {confirmLabel ? (
        <label className="administrators__confirm">
          <input type="checkbox" name="confirm" value={intent} required /> {confirmLabel}
        </label>
      ) : null}
      <button type="submit" className="button button--danger" aria-label={name}>
        {label}
      </button>
    </Form>
  );
}

export default function AdministratorsPage() {
  const { administrators, invitations, me, removalOffered, sudo } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const { formProps, formErrors, fieldProps } = useLiveValidation(INVITE_FORM, refusal?.invite);
  return (
    <section className="administrators" aria-labelledby="administrators-heading">
      <h1 id="administrators-heading">{words.heading}</h1>
      <p>
        <Link to="/financing">{words.back}</Link>
      </p>
      <SudoNotice sudo={sudo} />
      {refusal && !refusal.invite ? <RefusalAlert {...refusal} /> : null}

      <h2>{words.caption}</h2>
      <p className="administrators__note">{words.removeNote}</p>
      <p className="administrators__note">{words.resetNote}</p>
      <ul className="administrators__list">
        {administrators.map((admin) => (
          <li key={admin.id} className="administrators__card">
            <p className="administrators__email">
              <strong>{admin.email}</strong> {admin.id === me ? words.you : null}
            </p>
            <dl>
              <dt>{words.columns.secondFactor}</dt>
              <dd>{words.secondFactor(admin.secondFactor)}</dd>
              <dt>{words.columns.lastSignIn}</dt>
              <dd>{admin.lastSignIn ? formatRegistrationTime(admin.lastSignIn) : words.neverSignedIn}</dd>
              <dt>{words.columns.createdBy}</dt>
              <dd>{createdByText(admin.createdBy)}</dd>
            </dl>
            <div className="administrators__actions">
              <RowAction
                intent="reset-factor"
                id={admin.id}
                label={words.resetFactor}
                name={words.resetFactorFor(admin.email)}
              />
              {removalOffered ? (
                <RowAction
                  intent="remove"
                  id={admin.id}
                  label={words.remove}
                  name={words.removeFor(admin.email)}
                  confirmLabel={words.removeConfirm(admin.email)}
                />
              ) : (
                <p>{words.onlyAdministrator}</p>
              )}
            </div>
          </li>
        ))}
      </ul>

      <h2>{words.invitations.heading}</h2>
      {invitations.length === 0 ? (
        <p>{words.invitations.empty}</p>
      ) : (
        <ul className="administrators__list">
          {invitations.map((invitation) => (
            <li key={invitation.id} className="administrators__card">
              <p className="administrators__email">
                <strong>{invitation.email}</strong>
              </p>
              <dl>
                <dt>{words.invitations.columns.invitedBy}</dt>
                <dd>{invitation.invitedBy}</dd>
                <dt>{words.invitations.columns.expires}</dt>
                <dd>{formatRegistrationTime(invitation.expiresAt)}</dd>
              </dl>
              <div className="administrators__actions">
                <RowAction
                  intent="revoke"
                  id={invitation.id}
                  label={words.invitations.revoke}
                  name={words.invitations.revokeFor(invitation.email)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}

      <h2>{words.invite.heading}</h2>
      <p>{words.invite.intro}</p>
      <Form method="post" className="administrators__invite" {...formProps}>
        <input type="hidden" name="intent" value="invite" />
        <FormErrors id={`${INVITE_FORM}-form-error`} errors={formErrors} />
        <EmailField field={fieldProps("email")} />
        <button type="submit" className="button">
          {words.invite.submit}
        </button>
      </Form>
    </section>
  );
}

export const ErrorBoundary = () => <AdminRefusal className="administrators" />;
