/** The honeypot a form's loader hands its page: the trap's name, the stamp's name and the signed stamp. */
export type HoneypotFieldValues = { trapField: string; stampField: string; stamp: string };
