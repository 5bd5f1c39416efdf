import { createHmac, timingSafeEqual } from "node:crypto";
import type { HoneypotFieldValues } from "~/lib/honeypot";
import { getEnv } from "~/server/env.server";

/**
 * The hidden fields that public forms carry to turn away bots: a text field that
 * a person never sees and leaves empty (the trap), and the time the form was
 * rendered, signed with the session secret so that a bot cannot forge one (the stamp).
 */
const TRAP_FIELD = "name__confirm";
const STAMP_FIELD = "from__confirm";

/** The names of the hidden fields, which a refused form never echoes back. */
export const honeypotFieldNames = [TRAP_FIELD, STAMP_FIELD];

/**
 * The hidden fields' values for a page with a public form: its loader returns
 * them as `honeypot`, and HoneypotFields renders them (pages without a form pay nothing).
 */
export function honeypotFields(renderedAt = Date.now()): HoneypotFieldValues {
  const time = String(renderedAt);
  return {
    trapField: TRAP_FIELD,
    stampField: STAMP_FIELD,
    stamp: `${time}.${signature(time, getEnv().sessionSecrets[0])}`,
  };
}

/**
 * True when the submission looks like a bot's: the trap filled, or a stamp this
 * server did not sign or dated in the future. Where the hidden fields are
 * optional (the account forms, which other clients may post), a submission
 * without either of them passes; the contact form requires them.
 */
export function isSpam(formData: FormData, { fieldsRequired = false } = {}): boolean {
  const trap = formData.get(TRAP_FIELD);
  const stamp = formData.get(STAMP_FIELD);
  if (trap === null && stamp === null) return fieldsRequired;
  if (trap !== "") return true;
  return typeof stamp !== "string" || !isGenuineStamp(stamp);
}

function isGenuineStamp(stamp: string): boolean {
  const [time, mac, ...rest] = stamp.split(".");
  if (rest.length > 0 || !mac || !/^\d{1,15}$/.test(time)) return false;
  if (Number(time) > Date.now()) return false;
  const given = Buffer.from(mac);
  // Every configured secret verifies, so a stamp survives a secret's rotation.
  return getEnv().sessionSecrets.some((secret) => {
    const expected = Buffer.from(signature(time, secret));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

function signature(time: string, secret: string) {
  return createHmac("sha256", secret).update(`honeypot:${time}`).digest("base64url");
}
