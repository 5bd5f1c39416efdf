import { Form } from "@remix-run/react";
import { passkeyNames } from "~/content/account-sessions";
import type { FormReply } from "~/lib/form-reply";
import { formatRegistrationTime } from "~/lib/investor-table";
import { Field, FormErrors } from "./form-field";

type Passkey = { id: string; name: string | null; createdAt: string; lastUsedAt: string | null };

/** A passkey's name (or its place in the list, for one made before names were kept), when it was added and last used. */
export function PasskeyFacts({ passkey, number }: { passkey: Passkey; number: number }) {
  return (
    <>
      <h3 className="signed-in__name">{passkey.name ?? passkeyNames.numbered(number)}</h3>
      <dl className="signed-in__facts">
        <dt>{passkeyNames.created}</dt>
        <dd>{formatRegistrationTime(passkey.createdAt)}</dd>
        <dt>{passkeyNames.lastUsed}</dt>
        <dd>{passkey.lastUsedAt ? formatRegistrationTime(passkey.lastUsedAt) : passkeyNames.neverUsed}</dd>
      </dl>
    </>
  );
}

/** The passkey's name as a small form of its own; its message beside it, the refused name kept. */
export function RenamePasskeyForm({
  passkey,
  number,
  reply,
}: {
  passkey: Passkey;
  number: number;
  reply: FormReply | undefined;
}) {
  const formId = `rename-passkey-${number}`;
  const nameErrors = reply?.error.name;
  const formErrors = reply
    ? Object.entries(reply.error).flatMap(([field, messages]) => (field === "name" ? [] : (messages ?? [])))
    : undefined;
  const typed = reply?.initialValue?.name;
  return (
    <Form method="post" className="security-form" id={formId}>
      <FormErrors id={`${formId}-form-error`} errors={formErrors?.length ? formErrors : undefined} />
      <input type="hidden" name="intent" value="rename-passkey" />
      <input type="hidden" name="passkeyId" value={passkey.id} />
      <div className="rename-passkey">
        <Field
          id={`${formId}-name`}
          name="name"
          label={passkeyNames.renameLabel}
          errors={nameErrors}
          defaultValue={typeof typed === "string" ? typed : (passkey.name ?? passkeyNames.numbered(number))}
          autoComplete="off"
          required
        />
        <button type="submit" className="button button--secondary">
          {passkeyNames.rename}
        </button>
      </div>
    </Form>
  );
}
