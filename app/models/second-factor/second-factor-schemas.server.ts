/**
 * The second factor's inputs as zod schemas, parsed once at the edge: the login's code step, the
 * API login's optional `code`, the authenticator app's set-up, and the proof of who you are (the
 * password, and a code or a passkey) that opens the security changes.
 */
import { z } from "zod";
import { recoveryCodesPage } from "~/content/recovery-codes";
import {
  CODE_MAX_LENGTH,
  codeMessages,
  passkeyMessages,
  RECOVERY_CODE_COUNT,
  securityMessages,
} from "~/content/second-factor";
import { loginPasswordSchema, loginSchema } from "~/models/account/account-schemas.server";
import { passkeyNameSchema } from "./passkey-name-schema.server";
import type { SecondFactorCode } from "./second-factor.server";

const TOTP_CODE = /^\d{6}$/;
/** Ten letters and digits, the hyphen after the fifth optional. */
const RECOVERY_CODE = /^[0-9a-z]{5}-?[0-9a-z]{5}$/;

/**
 * A code as typed or pasted: spaces anywhere are dropped ("123 456", "abcde fghij"), and so is the
 * hyphen some apps show mid-way through their six digits ("123-456"); letters in any case.
 */
function compactCode(typed: string): string {
  return typed
    .replace(/\s/g, "")
    .replace(/^(\d{3})-(\d{3})$/, "$1$2")
    .toLowerCase();
}

/**
 * The codes as typed, spaces anywhere: six digits (a hyphen after the third allowed), or ten letters and
 * digits (a hyphen after the fifth allowed). The transform below reads them; this says it in the API's document.
 */
const CODE_AS_TYPED = /^\s*(?:(?:\d\s*){3}(?:-\s*)?(?:\d\s*){3}|(?:[0-9A-Za-z]\s*){5}(?:-\s*)?(?:[0-9A-Za-z]\s*){5})$/;

/** A code as typed: six digits are the app's, ten letters and digits a recovery code. */
export const secondFactorCodeSchema = z
  .string({ error: codeMessages.empty })
  .max(CODE_MAX_LENGTH, { error: codeMessages.malformed, abort: true })
  .regex(CODE_AS_TYPED, {
    error: (issue) => (String(issue.input).replace(/\s/g, "") === "" ? codeMessages.empty : codeMessages.malformed),
    abort: true,
  })
  .meta({ examples: ["123456"] })
  .transform((typed, context): SecondFactorCode => {
    const code = compactCode(typed);
    if (TOTP_CODE.test(code)) return { kind: "totp", value: code };
    if (RECOVERY_CODE.test(code)) return { kind: "recovery", value: code };
    context.addIssue({ code: "custom", message: code === "" ? codeMessages.empty : codeMessages.malformed });
    return z.NEVER;
  });

/** Only the app's six digits: what confirms a set-up. */
export const totpCodeSchema = z
  .string({ error: codeMessages.empty })
  .max(CODE_MAX_LENGTH, { error: codeMessages.malformed, abort: true })
  .transform(compactCode)
  .refine((code) => TOTP_CODE.test(code), { error: codeMessages.malformed });

export const codeStepSchema = z.object({ code: secondFactorCodeSchema });

/** POST /api/auth/login: the credentials, and the code when the account has a second factor. */
export const apiLoginSchema = loginSchema.extend({ code: secondFactorCodeSchema.optional() });

/** A WebAuthn field: base64url, and never longer than a real answer gets. */
const base64url = z
  .string({ error: passkeyMessages.malformed })
  .max(8192, { error: passkeyMessages.malformed })
  .regex(/^[A-Za-z0-9_-]+$/, { error: passkeyMessages.malformed });
const transports = z.array(z.enum(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"])).max(8);
const attachment = z.enum(["platform", "cross-platform"]).optional();
const challengeId = z
  .string({ error: passkeyMessages.expired })
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: passkeyMessages.expired });

/** What @simplewebauthn/browser answers (`response` is the ceremony's own part), with the challenge's id. */
function passkeyAnswer<Shape extends z.ZodRawShape>(response: Shape) {
  return z.object({
    challengeId,
    response: z.object({
      id: base64url,
      rawId: base64url,
      type: z.literal("public-key", { error: passkeyMessages.malformed }),
      response: z.object(response),
      authenticatorAttachment: attachment,
      clientExtensionResults: z.object({}).default({}),
    }),
  });
}

/** startRegistration's answer. */
export const passkeyRegistrationSchema = passkeyAnswer({
  clientDataJSON: base64url,
  attestationObject: base64url,
  transports: transports.optional(),
});

/** startAuthentication's answer. */
export const passkeySignInSchema = passkeyAnswer({
  clientDataJSON: base64url,
  authenticatorData: base64url,
  signature: base64url,
  userHandle: base64url.optional(),
});

/**
 * A passkey's answer carried in a page form's hidden field (as JSON), beside the password, when a
 * signed-in user proves who they are with a passkey rather than a code.
 */
const passkeyAnswerField = z
  .string({ error: securityMessages.passkeyAnswerInvalid })
  .max(16_384, { error: securityMessages.passkeyAnswerInvalid })
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: "custom", message: securityMessages.passkeyAnswerInvalid });
      return z.NEVER;
    }
  })
  .pipe(passkeySignInSchema);

/** "Confirm it's you": the password, and the code or a passkey's answer where the account has a second factor. */
const reauthentication = z.object({
  intent: z.literal("confirm"),
  password: loginPasswordSchema,
  code: secondFactorCodeSchema.optional(),
  passkeyAnswer: passkeyAnswerField.optional(),
});

export type ReauthenticationInput = z.output<typeof reauthentication>;

/** The "Confirm it's you" page on its own (/financing/confirm), which administrators' actions send to. */
export const reauthenticationSchema = reauthentication;

/** The authenticator app's set-up page: confirming who you are, or the new app's first code. */
export const totpEnrolmentSchema = z.discriminatedUnion(
  "intent",
  [reauthentication, z.object({ intent: z.literal("enrol"), code: totpCodeSchema })],
  { error: securityMessages.unknownChange },
);

/** Asking for a passkey sign-in's options: alone, or as the second step of a pending login. */
export const passkeyOptionsSchema = z.object({ secondStep: z.boolean().default(false) });

/** The security settings' forms: confirming who you are, and the changes it opens. */
export const securityChangeSchema = z.discriminatedUnion(
  "intent",
  [
    reauthentication,
    z.object({ intent: z.literal("regenerate-codes") }),
    z.object({ intent: z.literal("remove") }),
    z.object({
      intent: z.literal("remove-passkey"),
      passkeyId: z
        .string({ error: securityMessages.noSuchPasskey })
        .max(1024, { error: securityMessages.noSuchPasskey }),
    }),
    z.object({
      intent: z.literal("rename-passkey"),
      passkeyId: z
        .string({ error: securityMessages.noSuchPasskey })
        .max(1024, { error: securityMessages.noSuchPasskey }),
      name: passkeyNameSchema,
    }),
  ],
  { error: securityMessages.unknownChange },
);

const SHOWN_RECOVERY_CODE = /^[0-9a-z]{5}-[0-9a-z]{5}$/;

/**
 * The recovery codes a page showed, sent back by its own forms (the .txt download, and "Continue",
 * which shows them again when "I have saved these codes" was not ticked): one field, the codes
 * separated by spaces, each as the site makes it.
 */
const shownRecoveryCodes = z
  .string({ error: recoveryCodesPage.malformed })
  .max(RECOVERY_CODE_COUNT * 12, { error: recoveryCodesPage.malformed, abort: true })
  .transform((text) => text.trim().split(/\s+/))
  .refine((codes) => codes.length <= RECOVERY_CODE_COUNT && codes.every((code) => SHOWN_RECOVERY_CODE.test(code)), {
    error: recoveryCodesPage.malformed,
  });

/** The recovery codes' .txt file. */
export const recoveryCodesFileSchema = z.object({ codes: shownRecoveryCodes });

/** The recovery codes' page: the sign-in's first set made, or "Continue" once they are saved. */
export const recoveryCodesPageSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("issue") }),
    z.object({
      intent: z.literal("continue"),
      codes: shownRecoveryCodes,
      // Checked by the route, so a refusal can show the codes again.
      saved: z.literal("on", { error: recoveryCodesPage.savedMissing }).optional(),
      next: z.enum(["/financing", "/financing/security"], { error: recoveryCodesPage.malformed }),
    }),
  ],
  { error: recoveryCodesPage.malformed },
);
