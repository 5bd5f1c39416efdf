import { useMatches } from "@remix-run/react";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import type { HoneypotInputProps } from "remix-utils/honeypot/server";

/**
 * A public form's hidden honeypot fields. The route that renders the form
 * returns `honeypot: await honeypotFields()` from its loader
 * (app/utils/honeypot.server.ts), so only pages with a form compute and ship them.
 */
export function HoneypotFields() {
  const fields = useMatches()
    .map((match) => (match.data as { honeypot?: HoneypotInputProps } | null | undefined)?.honeypot)
    .findLast(Boolean);
  return (
    <HoneypotProvider {...fields}>
      <HoneypotInputs />
    </HoneypotProvider>
  );
}
