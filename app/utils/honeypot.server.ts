import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import { getEnv } from "./env.server";

let honeypot: Honeypot | undefined;

/** The hidden field and timestamp that public forms carry to turn away bots. */
export function getHoneypot() {
  honeypot ??= new Honeypot({
    nameFieldName: "name__confirm",
    validFromFieldName: "from__confirm",
    encryptionSeed: getEnv().sessionSecrets[0],
  });
  return honeypot;
}

/**
 * The hidden fields' values for a page with a public form: its loader returns
 * them as `honeypot`, and HoneypotFields renders them (pages without a form pay nothing).
 */
export function honeypotFields() {
  return getHoneypot().getInputProps();
}

/** True when the submission looks like a bot's (the hidden field was filled). */
export async function isSpam(formData: FormData) {
  try {
    await getHoneypot().check(formData);
    return false;
  } catch (error) {
    if (error instanceof SpamError) return true;
    throw error;
  }
}
