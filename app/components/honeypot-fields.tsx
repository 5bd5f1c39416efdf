import { useMatches } from "@remix-run/react";
import type { HoneypotFieldValues } from "~/lib/honeypot";

const LABEL = "Please leave this field blank";

/**
 * A public form's hidden honeypot fields. The route that renders the form
 * returns `honeypot: honeypotFields()` from its loader
 * (app/http/honeypot.server.ts), so only pages with a form compute and ship them.
 */
export function HoneypotFields() {
  const fields = useMatches()
    .map((match) => (match.data as { honeypot?: HoneypotFieldValues } | null | undefined)?.honeypot)
    .findLast(Boolean);
  if (!fields) return null;
  const { trapField, stampField, stamp } = fields;
  return (
    <div id={`${trapField}_wrap`} style={{ display: "none" }} aria-hidden="true">
      <label htmlFor={trapField}>{LABEL}</label>
      {/* Autofill ignores "off" on some fields; a token it does not know keeps a person's autofill out of the trap. */}
      {/* eslint-disable-next-line jsx-a11y/autocomplete-valid */}
      <input id={trapField} name={trapField} type="text" defaultValue="" autoComplete="nope" tabIndex={-1} />
      <label htmlFor={stampField}>{LABEL}</label>
      <input id={stampField} name={stampField} type="text" value={stamp} readOnly autoComplete="off" tabIndex={-1} />
    </div>
  );
}
