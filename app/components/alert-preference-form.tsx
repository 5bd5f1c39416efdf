import { Form } from "@remix-run/react";
import { FormErrors } from "~/components/form-field";
import { alertsPage, hourLabel } from "~/content/alerts";

const words = alertsPage;
type AlertMode = keyof typeof alertsPage.modes;
const MODES = ["openings", "digest", "off"] as const satisfies readonly AlertMode[];
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

export type AlertPreferenceView = { mode: AlertMode; digestHour: number };
export type AlertPreferenceReplyView = { ok: true; unsubscribed: boolean } | { ok: false; message: string };

/** What the administrator receives now, in a sentence. */
function currentChoice({ mode, digestHour }: AlertPreferenceView) {
  return mode === "digest" ? words.current.digest(hourLabel(digestHour)) : words.current[mode];
}

/**
 * The choice of alert e-mails: a plain form (it works without JavaScript), the same on the administrator's
 * own page and behind the signed link of an e-mail.
 */
export function AlertPreferenceForm({
  preference,
  reply,
}: {
  preference: AlertPreferenceView;
  reply: AlertPreferenceReplyView | undefined;
}) {
  return (
    <Form method="post" className="alert-preference" aria-describedby="alert-preference-error">
      <p role="status">
        {reply?.ok ? `${reply.unsubscribed ? words.unsubscribed : words.saved} ` : ""}
        {currentChoice(preference)}
      </p>
      <FormErrors id="alert-preference-error" errors={reply && !reply.ok ? [reply.message] : undefined} />
      <fieldset className="alert-preference__modes">
        <legend>{words.legend}</legend>
        {MODES.map((mode) => (
          <div key={mode} className="alert-preference__mode">
            <input
              type="radio"
              id={`alert-mode-${mode}`}
              name="mode"
              value={mode}
              defaultChecked={preference.mode === mode}
              aria-describedby={`alert-mode-${mode}-hint`}
            />
            <label htmlFor={`alert-mode-${mode}`}>{words.modes[mode].label}</label>
            <p id={`alert-mode-${mode}-hint`} className="field__hint">
              {words.modes[mode].hint}
            </p>
          </div>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="alert-digest-hour">{words.hour}</label>
        <p id="alert-digest-hour-hint" className="field__hint">
          {words.hourHint}
        </p>
        <select
          id="alert-digest-hour"
          name="digestHour"
          defaultValue={preference.digestHour}
          aria-describedby="alert-digest-hour-hint"
        >
          {HOURS.map((hour) => (
            <option key={hour} value={hour}>
              {hourLabel(hour)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button">
        {words.save}
      </button>
    </Form>
  );
}
