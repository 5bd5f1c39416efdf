/**
 * The JSON API's contract: every /api call with the schemas it reads its input with and the shapes of
 * every answer it gives. The OpenAPI document (openapi.server.ts) is generated from this list, the routes
 * type their answers with the shapes below, and the contract test holds the running server to the
 * document. A shape is written once, here or beside the use case that parses it.
 */
import { z } from "zod";
import { AUTH_BODY_LIMIT_BYTES } from "~/content/constants";
import { publicUserSchema } from "~/lib/user-shape";
import { apiResetPasswordSchema, emailSchema, newAccountSchema } from "~/models/account/account-schemas.server";
import { auditLogQuerySchema } from "~/models/audit/audit-log.server";
import { deleteInvestorSchema } from "~/models/investors/investor-deletion.server";
import { investorListQuerySchema } from "~/models/investors/investor-list-api.server";
import { setNameAddressSchema } from "~/models/investors/investor-profile.server";
import { investorQuerySchema } from "~/models/investors/investor-record.server";
import { ndaFlagSchema } from "~/models/investors/nda-flags.server";
import { materialUploadSchema, materialVersionUploadSchema } from "~/models/library/material-fields.server";
import {
  ndaConsentSchema,
  ndaCountersignSchema,
  ndaRecordQuerySchema,
  ndaSignSchema,
} from "~/models/nda/nda-schemas.server";
import { apiLoginSchema } from "~/models/second-factor/second-factor-schemas.server";
import { afterMaterialsCalls, afterMaterialsShapes } from "./after-materials-contract.server";

/* The answers' shapes. */

export const messageAnswerSchema = z.object({ message: z.string() });

/** Every refusal: a sentence for a person, and for field errors the messages of each field. */
export const errorAnswerSchema = z.object({
  message: z.string(),
  issues: z
    .record(z.string(), z.array(z.string()))
    .optional()
    .meta({ description: "The messages of each refused field, by name." }),
});

export const loginAnswerSchema = z.object({
  accessToken: z.string().meta({ description: "Send as 'Authorization: Bearer <accessToken>'." }),
  user: publicUserSchema,
  expiresIn: z.number().int().meta({ description: "The access token's lifetime in seconds." }),
});

export const secondFactorRequiredSchema = z.object({ message: z.string(), mfaRequired: z.literal(true) });

export const refreshAnswerSchema = z.object({
  accessToken: z.object({ access_token: z.string(), expires_in: z.number().int() }),
});

/** Login's 401: the code is wanted next, or the password or code was wrong. */
export const loginRefusalSchema = z.union([secondFactorRequiredSchema, errorAnswerSchema]);

export const ndaFlagAnswerSchema = z.object({ message: z.string(), user: publicUserSchema });

export const investorListSchema = z.object({
  users: z.array(publicUserSchema),
  nextCursor: z
    .string()
    .optional()
    .meta({ description: "Present when more investors remain: send it back as `cursor` for the next page." }),
});

export const auditEventSchema = z.object({
  id: z.number().int().meta({ description: "The row's place in the audit trail's hash chain." }),
  at: z.string().meta({ description: "When it was recorded: ISO 8601, UTC." }),
  actorEmail: z.string().nullable().meta({ description: "Who caused it, as recorded." }),
  action: z.string().meta({ description: "The kind of event, e.g. `login.succeeded`." }),
  event: z.string().meta({ description: "The event in words." }),
  targetEmail: z.string().nullable().meta({ description: "Whom it concerned, as recorded." }),
  targetId: z.string().nullable(),
  details: z
    .record(z.string(), z.unknown())
    .meta({ description: "The facts recorded with it, by name (text that is not a JSON object under `text`)." }),
  ip: z.string().nullable().meta({ description: "The client's address." }),
});

export const auditLogSchema = z.object({
  events: z.array(auditEventSchema).meta({ description: "Newest first." }),
  nextCursor: z
    .string()
    .optional()
    .meta({ description: "Present when older events remain: send it back as `cursor` for the next page." }),
});

/** A step of the NDA, with its other changes beneath it (`changes`: what each of them may be). */
function timelineStepSchema<const Changes extends readonly [string, ...string[]]>(changes: Changes) {
  return z.object({
    done: z.boolean().meta({ description: "The step as it now stands." }),
    at: z.iso.datetime().nullable().meta({
      description:
        "When it was done, as the audit trail has it: the first time, or for a flag undone and done again the first time of its current run. Null when not done, or done before records began.",
    }),
    by: z.string().nullable().meta({ description: "Who did it (an e-mail address); null as `at` is." }),
    history: z
      .array(
        z.object({
          change: z.enum(changes).meta({
            description:
              "`done` (given, or marked), `undone` (marked No, or cleared with NDA sent) or `corrected` (the name and address).",
          }),
          at: z.iso.datetime(),
          by: z.string().nullable().meta({ description: "Who made it (an e-mail address), as recorded." }),
        }),
      )
      .meta({
        description: "The step's other changes, oldest first: corrections, and a flag's earlier runs and undoings.",
      }),
  });
}

/** get_investor's answer: what the investor's page shows. */
export const investorRecordAnswerSchema = z.object({
  investor: z.object({
    id: z.string(),
    email: z.string(),
    fullName: z.string(),
    address: z.string(),
    emailVerified: z.boolean(),
    isNDASent: z.boolean(),
    isNDASigned: z.boolean(),
    registeredAt: z.iso.datetime(),
    lastSignInAt: z.iso.datetime().nullable().meta({ description: "Null: not since records began." }),
    secondFactor: z.object({
      authenticator: z.boolean(),
      passkeys: z.number().int(),
      recoveryCodesLeft: z.number().int(),
    }),
    sessionsOpen: z.number().int().meta({ description: "Web sessions still live." }),
    timeline: z.object({
      details: timelineStepSchema(["done", "corrected"]),
      sent: timelineStepSchema(["done", "undone"]),
      signed: timelineStepSchema(["done", "undone"]),
    }),
  }),
  activity: z.object({
    entries: z.array(
      z.object({
        id: z.number().int(),
        at: z.iso.datetime(),
        action: z.string().meta({
          description:
            "materials.view, file.download, file.viewed, material.opened (a library document opened) or material.refused (one outside the investor's audience).",
        }),
        detail: z.string().meta({ description: "The page's path, the file's name or the document's title." }),
      }),
    ),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: "Send it back as `activityCursor` for older activity; null when there is none." }),
  }),
});

const documentKindSchema = z.enum(["pdf", "video"]);
const audienceSchema = z
  .enum(["signed", "chosen"])
  .meta({ description: "`signed`: every investor whose NDA is signed; `chosen`: the investors chosen." });
const isoTime = (description: string) => z.iso.datetime().meta({ description });

/** A document of the library as the API lists it, with its latest version. */
export const materialSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  kind: documentKindSchema,
  size: z.number().int().meta({ description: "The latest version's size in bytes." }),
  updated: isoTime("When the latest version was uploaded: ISO 8601, UTC."),
  version: z.number().int().meta({ description: "The latest version's number, from 1: investors always get it." }),
  url: z.string().meta({
    description:
      "The document's page on the portal's site (a path). It opens in a browser signed in to the portal: it takes the web session, not the access token.",
  }),
  published: z
    .boolean()
    .optional()
    .meta({ description: "For administrators: whether investors see it; a new document is a draft (false)." }),
  audience: audienceSchema.optional(),
});

export const materialListSchema = z.object({
  documents: z.array(materialSchema).meta({ description: "In the library's order." }),
});

export const materialVersionSchema = z.object({
  id: z.string().meta({ description: "The document's id." }),
  version: z.number().int().meta({ description: "The new version's number." }),
});

export const readingReportSchema = z.object({
  documents: z
    .array(
      z.object({
        id: z.string(),
        title: z.string(),
        kind: documentKindSchema,
        published: z.boolean(),
        readers: z.number().int().meta({ description: "How many people opened it." }),
        opens: z.number().int().meta({ description: "How many times it was opened in all." }),
        firstOpened: isoTime("The first opening; null when nobody has opened it.").nullable(),
        lastOpened: isoTime("The latest opening; null when nobody has opened it.").nullable(),
      }),
    )
    .meta({ description: "Every document of the library, published or not, in its order." }),
});

export const materialReadersSchema = z.object({
  id: z.string(),
  title: z.string(),
  readers: z
    .array(
      z.object({
        id: z.string().meta({ description: "The reader's user id." }),
        email: z.string(),
        fullName: z.string(),
        opens: z.number().int(),
        firstOpened: isoTime("Their first opening."),
        lastOpened: isoTime("Their latest opening."),
      }),
    )
    .meta({ description: "Everyone who opened it, the latest reader first." }),
});

const ndaSignatureSchema = z
  .object({
    kind: z
      .enum(["portal", "outside"])
      .meta({ description: "Signed in the portal, or recorded as signed outside it." }),
    signedAt: isoTime("When the investor signed."),
    sha256: z.string().nullable().meta({ description: "SHA-256 of the file the investor's signature sealed." }),
    countersignedAt: isoTime("When the firm countersigned.").nullable(),
    completedAt: isoTime("When the NDA was complete.").nullable(),
    completedSha256: z.string().nullable().meta({ description: "SHA-256 of the fully signed file." }),
  })
  .nullable();

export const ndaStateSchema = z.object({
  step: z
    .enum([
      "details-needed",
      "no-template",
      "consent-needed",
      "ready-to-sign",
      "waiting-for-countersignature",
      "completed",
      "signed-outside",
    ])
    .meta({ description: "What is needed next." }),
  oneSided: z.boolean().meta({ description: "True: the NDA completes on the investor's signature alone." }),
  disclosure: z.object({
    version: z.string(),
    sha256: z.string(),
    title: z.string(),
    paragraphs: z.array(z.string()),
    agree: z.string(),
  }),
  consent: z
    .object({ id: z.string(), givenAt: isoTime("When consent was given."), disclosureVersion: z.string() })
    .nullable(),
  copy: z
    .object({
      templateVersion: z.number().int(),
      sha256: z.string().meta({ description: "Send it as `copySha256` to sign this copy." }),
      offeredAt: isoTime("When the copy was offered."),
    })
    .nullable(),
  signature: ndaSignatureSchema,
  links: z.object({ document: z.string(), consent: z.string(), sign: z.string() }),
});

export const ndaSignAnswerSchema = z.object({
  sha256: z.string().meta({ description: "SHA-256 of the sealed file, as written into the audit trail." }),
  completed: z.boolean().meta({ description: "True when the NDA is complete (materials open)." }),
});

export const ndaRecordSchema = z.object({
  templateVersion: z.number().int().nullable(),
  steps: z.array(
    z.object({ auditId: z.number().int(), action: z.string(), at: isoTime("When."), by: z.string().nullable() }),
  ),
  evidence: z
    .object({
      typedName: z.string().nullable(),
      email: z.string(),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
      authMethod: z.string().nullable(),
      copySha256: z.string().nullable(),
      consentId: z.string().nullable(),
    })
    .nullable(),
  signature: ndaSignatureSchema,
  files: z.object({ copy: z.boolean(), signed: z.boolean(), completed: z.boolean(), outside: z.boolean() }),
});

/** The named shapes, as the document's components. */
export const answerShapes = {
  PublicUser: publicUserSchema,
  Message: messageAnswerSchema,
  Error: errorAnswerSchema,
  LoginAnswer: loginAnswerSchema,
  SecondFactorRequired: secondFactorRequiredSchema,
  LoginRefusal: loginRefusalSchema,
  RefreshAnswer: refreshAnswerSchema,
  NdaFlagAnswer: ndaFlagAnswerSchema,
  InvestorList: investorListSchema,
  AuditEvent: auditEventSchema,
  AuditLog: auditLogSchema,
  InvestorRecord: investorRecordAnswerSchema,
  Material: materialSchema,
  MaterialList: materialListSchema,
  MaterialVersion: materialVersionSchema,
  ReadingReport: readingReportSchema,
  MaterialReaders: materialReadersSchema,
  NdaState: ndaStateSchema,
  NdaSignAnswer: ndaSignAnswerSchema,
  NdaRecord: ndaRecordSchema,
  ...afterMaterialsShapes,
} as const;

/* The calls. */

export type AnswerHeader = "Retry-After" | "WWW-Authenticate" | "Set-Cookie";
export type Answer = {
  description: string;
  schema: z.ZodType;
  headers?: AnswerHeader[];
  /** Unset: JSON. */
  mediaType?: "application/pdf";
};

export type ApiOperation = {
  operationId: string;
  method: "get" | "post";
  /** In OpenAPI's form: `{name}` for a path parameter. */
  path: string;
  /** A few words: what the call does, as a title. */
  summary: string;
  /** What it does, for whom, and what to know before calling it. */
  description: string;
  tag:
    "Account" | "Investors" | "Audit" | "Materials" | "NDA" | "Questions" | "Qualification" | "Interest" | "Pipeline";
  /** Who may call: anyone, a bearer token's holder, an administrator's token, the refresh cookie's holder. */
  auth: "none" | "bearer" | "administrator" | "refresh-cookie" | "bearer-or-refresh-cookie";
  pathParameters?: Record<string, { schema: z.ZodType; description: string }>;
  query?: z.ZodObject;
  /** A JSON body: required, or optional for the calls that ignore what it holds. */
  body?: { schema: z.ZodType; required: boolean; name: string };
  /** A multipart/form-data body (a file upload): its parts, and the media types its file parts take. */
  upload?: { schema: z.ZodObject; name: string; fileTypes: Record<string, string> };
  answers: Record<number, Answer>;
};

const refused = (description: string, headers?: AnswerHeader[]): Answer => ({
  description,
  schema: errorAnswerSchema,
  headers,
});

const badInput = refused(
  "The input was refused: `message` says why; for field errors `issues` names each field with its messages.",
);
const notSignedIn = refused("No access token, or one that is expired, revoked or unknown.", ["WWW-Authenticate"]);
const throttled = refused("Too many requests from this address: try again after `Retry-After` seconds.", [
  "Retry-After",
]);
const unavailable = refused(
  "The database is unavailable for a moment (busy past its timeout, restarting or out of reach): try again after `Retry-After` seconds.",
  ["Retry-After"],
);
const foreignOrigin = "A request from another site (an `Origin` that is not the site's or an allowed one).";

/** What every call with a JSON body may also answer, beside its own. */
function bodyRefusals(forbidden?: string): Record<number, Answer> {
  return {
    400: badInput,
    403: refused(forbidden ? `${forbidden} Or: ${foreignOrigin}` : foreignOrigin),
    411: refused("The body came without `Content-Length` (in chunks): send its length."),
    413: refused(`The body is larger than ${AUTH_BODY_LIMIT_BYTES / 1024} KiB.`),
    415: refused("The body is not JSON (`Content-Type: application/json`, UTF-8)."),
  };
}

/** What every upload (a multipart body) may also answer, beside its own. */
function uploadRefusals(forbidden: string): Record<number, Answer> {
  return {
    400: refused(
      "The input was refused: a file that is empty, a PDF that will not parse, a video cut off, a body cut off, or a field refused (`issues` names each field with its messages). Nothing is stored.",
    ),
    401: notSignedIn,
    403: refused(`${forbidden} Or: ${foreignOrigin}`),
    411: refused("The body came without `Content-Length` (in chunks): send its length."),
    413: refused(
      "The file is larger than its kind allows (a PDF 50 MB, a video 1 GB, captions 2 MB), or a text part larger than 64 KiB.",
    ),
    415: refused(
      "The body is not `multipart/form-data`, or the file is not a PDF or an MP4 video (the captions not WebVTT), whatever its name says.",
    ),
  };
}

const MATERIAL_FILE_TYPES = { file: "application/pdf, video/mp4", captions: "text/vtt" };
const materialIdParameter = {
  id: { schema: z.string(), description: "The document's id, as the list gives it." },
};

const emptyBody = {
  schema: z.object({}).meta({ description: "Nothing, or a JSON object whose fields are ignored." }),
  required: false,
  name: "EmptyRequest",
};

/** Each call with the answers that are its own. */
const calls: ApiOperation[] = [
  {
    operationId: "register",
    method: "post",
    path: "/api/auth/register",
    summary: "Open an account",
    description:
      "Opens an account and e-mails its verification link. The answer is the same for an address already registered.",
    tag: "Account",
    auth: "none",
    body: { schema: newAccountSchema, required: true, name: "RegisterRequest" },
    answers: {
      201: { description: "The verification e-mail is on its way.", schema: messageAnswerSchema },
      ...bodyRefusals(),
      429: throttled,
    },
  },
  {
    operationId: "verifyEmail",
    method: "get",
    path: "/api/auth/verify/{token}",
    summary: "Verify an e-mail address",
    description: "Verifies the address with the token of the e-mailed link.",
    tag: "Account",
    auth: "none",
    pathParameters: {
      token: { schema: z.string(), description: "The token at the end of the e-mailed link." },
    },
    answers: {
      200: { description: "The address is verified.", schema: messageAnswerSchema },
      400: refused("The link is unknown, used or expired, or its token holds a control character."),
    },
  },
  {
    operationId: "login",
    method: "post",
    path: "/api/auth/login",
    summary: "Log in",
    description:
      "Logs in: an access token (15 minutes) in the answer, a refresh token in the HttpOnly `__refresh` cookie. An account with a second factor also sends `code`.",
    tag: "Account",
    auth: "none",
    body: { schema: apiLoginSchema, required: true, name: "LoginRequest" },
    answers: {
      200: { description: "Logged in.", schema: loginAnswerSchema, headers: ["Set-Cookie"] },
      ...bodyRefusals(
        "The address is not verified yet, or an administrator has no second factor set up (set it up on the website).",
      ),
      401: {
        description:
          "Wrong e-mail or password, or a wrong second-factor code; or `mfaRequired`: the right password, and now the code.",
        schema: loginRefusalSchema,
        headers: ["WWW-Authenticate"],
      },
      423: refused("Locked after too many failed attempts: try again after `Retry-After` seconds.", ["Retry-After"]),
      429: throttled,
    },
  },
  {
    operationId: "refreshToken",
    method: "post",
    path: "/api/auth/refresh_token",
    summary: "Refresh the access token",
    description: "A new access token for the refresh cookie, which is rotated: each refresh token works once.",
    tag: "Account",
    auth: "refresh-cookie",
    body: emptyBody,
    answers: {
      200: {
        description: "A new access token, and a new refresh cookie.",
        schema: refreshAnswerSchema,
        headers: ["Set-Cookie"],
      },
      ...bodyRefusals(),
      401: refused("No refresh cookie, or one that is expired, spent or revoked; the cookie is cleared.", [
        "WWW-Authenticate",
        "Set-Cookie",
      ]),
      429: throttled,
    },
  },
  {
    operationId: "logout",
    method: "post",
    path: "/api/auth/logout",
    summary: "Log out",
    description: "Ends the bearer token's and the refresh cookie's token families, and clears the cookie.",
    tag: "Account",
    auth: "bearer-or-refresh-cookie",
    body: emptyBody,
    answers: {
      200: {
        description: "Logged out (also when nothing was logged in).",
        schema: messageAnswerSchema,
        headers: ["Set-Cookie"],
      },
      ...bodyRefusals(),
    },
  },
  {
    operationId: "forgotPassword",
    method: "get",
    path: "/api/auth/forgot-password/{email}",
    summary: "Ask for a password reset link",
    description: "E-mails a password reset link. The answer is the same for an address that is not registered.",
    tag: "Account",
    auth: "none",
    pathParameters: { email: { schema: emailSchema, description: "The account's e-mail address." } },
    answers: {
      200: { description: "The reset e-mail is on its way.", schema: messageAnswerSchema },
      400: badInput,
      429: throttled,
    },
  },
  {
    operationId: "resetPassword",
    method: "post",
    path: "/api/auth/reset-password",
    summary: "Set a new password",
    description: "Sets a new password with the token of the e-mailed link; every session and token of the user ends.",
    tag: "Account",
    auth: "none",
    body: { schema: apiResetPasswordSchema, required: true, name: "ResetPasswordRequest" },
    answers: {
      200: { description: "The password is changed.", schema: messageAnswerSchema },
      ...bodyRefusals(),
      429: throttled,
    },
  },
  {
    operationId: "getInvestors",
    method: "get",
    path: "/api/user/get_investors",
    summary: "List the investors",
    description:
      "The investors, oldest first. Without parameters every one; with `limit` and `cursor` a page at a time, `nextCursor` leading to the next. `offset` is the older way to page.",
    tag: "Investors",
    auth: "administrator",
    query: investorListQuerySchema,
    answers: {
      200: { description: "The investors.", schema: investorListSchema },
      400: badInput,
      401: notSignedIn,
      403: refused("The token is not an administrator's."),
    },
  },
  {
    operationId: "getInvestor",
    method: "get",
    path: "/api/user/get_investor",
    summary: "Read one investor",
    description:
      "One investor as their page shows them: account, NDA steps, second factor, sessions open, and the first page of their activity (`activityCursor` for more).",
    tag: "Investors",
    auth: "administrator",
    query: investorQuerySchema,
    answers: {
      200: { description: "The investor.", schema: investorRecordAnswerSchema },
      400: badInput,
      401: notSignedIn,
      403: refused("The token is not an administrator's."),
      404: refused("No investor has this id."),
    },
  },
  {
    operationId: "setNameAddress",
    method: "post",
    path: "/api/user/set_name_address",
    summary: "Set a name and address",
    description:
      "Sets a user's full name and address for the NDA: an investor their own (until the NDA is sent), an administrator anyone's. Details given again over others are a correction, recorded with the old and the new values; the same details again change nothing.",
    tag: "Investors",
    auth: "bearer",
    body: { schema: setNameAddressSchema, required: true, name: "NameAddressRequest" },
    answers: {
      201: { description: "The user as now stored.", schema: publicUserSchema },
      ...bodyRefusals("An investor may name only themselves."),
      401: notSignedIn,
      404: refused("No user has this address."),
      409: refused(
        "The NDA has been sent: the name and address can no longer change (or they changed while this correction was sent).",
      ),
    },
  },
  ...(["update_nda_sent", "update_nda_signed"] as const).map((call): ApiOperation => ({
    operationId: call === "update_nda_sent" ? "updateNdaSent" : "updateNdaSigned",
    method: "post",
    path: `/api/user/${call}`,
    summary: call === "update_nda_sent" ? "Mark the NDA sent or not" : "Mark the NDA signed or not",
    description:
      call === "update_nda_sent"
        ? "Sets whether the NDA was sent; No also clears 'signed'."
        : "Sets whether the NDA is signed; Yes also sets 'sent' and e-mails the investor that the materials are open.",
    tag: "Investors",
    auth: "administrator",
    body: { schema: ndaFlagSchema, required: true, name: "NdaFlagRequest" },
    answers: {
      201: { description: "The investor as now stored.", schema: ndaFlagAnswerSchema },
      ...bodyRefusals("The token is not an administrator's."),
      401: notSignedIn,
      404: refused("No investor has this address."),
      409: refused(
        "Marking refused: the investor has not verified their e-mail address, or has given no name and address. Unmarking is always allowed.",
      ),
    },
  })),
  {
    operationId: "getNda",
    method: "get",
    path: "/api/nda",
    summary: "Read my NDA",
    description:
      "The investor's NDA: what is needed next, the disclosure to consent to, the copy to review (offered now if it was not, which marks the NDA sent) and the signature once given.",
    tag: "NDA",
    auth: "bearer",
    answers: {
      200: { description: "The NDA's state.", schema: ndaStateSchema },
      401: notSignedIn,
      403: refused("The token is not an investor's."),
    },
  },
  {
    operationId: "consentToElectronicRecords",
    method: "post",
    path: "/api/nda/consent",
    summary: "Consent to electronic records",
    description:
      "Records the investor's consent to electronic records and signatures, with the disclosure's version and SHA-256. Withdrawn from the account's security page.",
    tag: "NDA",
    auth: "bearer",
    body: { schema: ndaConsentSchema, required: true, name: "NdaConsentRequest" },
    answers: {
      201: { description: "The NDA's state, with the consent.", schema: ndaStateSchema },
      ...bodyRefusals("The token is not an investor's."),
      401: notSignedIn,
    },
  },
  {
    operationId: "signNda",
    method: "post",
    path: "/api/nda/sign",
    summary: "Sign my NDA",
    description:
      "Signs the copy reviewed (its SHA-256 as `GET /api/nda` gives it) with the full name typed as on file and the intent to sign; a code where the account has a second factor. The signed PDF is sealed, stored, and its hash written into the audit trail.",
    tag: "NDA",
    auth: "bearer",
    body: { schema: ndaSignSchema, required: true, name: "NdaSignRequest" },
    answers: {
      201: { description: "Signed.", schema: ndaSignAnswerSchema },
      ...bodyRefusals("The token is not an investor's."),
      401: refused("No access token, one that is not valid, or a wrong second-factor code.", ["WWW-Authenticate"]),
      409: refused(
        "Not signable now: no consent, signed already, no copy offered, or the copy reviewed was superseded (the message names the current version).",
      ),
      423: refused("Too many wrong codes: the second factor is locked for a while.", ["Retry-After"]),
      429: throttled,
    },
  },
  {
    operationId: "getNdaDocument",
    method: "get",
    path: "/api/nda/document",
    summary: "Download my NDA",
    description:
      "The investor's NDA as a PDF: what they signed once signed, the copy to review before. Each download is audited.",
    tag: "NDA",
    auth: "bearer",
    answers: {
      200: { description: "The PDF.", schema: z.string().meta({ format: "binary" }), mediaType: "application/pdf" },
      401: notSignedIn,
      403: refused("The token is not an investor's."),
      404: refused("There is nothing to open yet: no name and address, or no template."),
    },
  },
  {
    operationId: "countersignNda",
    method: "post",
    path: "/api/nda/countersign",
    summary: "Countersign an investor's NDA",
    description:
      "The firm's countersignature: the file is sealed again with both blocks, the NDA is complete (sent and signed), and both sides are e-mailed the PDF.",
    tag: "NDA",
    auth: "administrator",
    body: { schema: ndaCountersignSchema, required: true, name: "NdaCountersignRequest" },
    answers: {
      201: { description: "Countersigned.", schema: ndaSignAnswerSchema },
      ...bodyRefusals("The token is not an administrator's."),
      401: notSignedIn,
      409: refused("The investor has not signed in the portal, it is countersigned already, or the NDA is one-sided."),
    },
  },
  {
    operationId: "getNdaRecord",
    method: "get",
    path: "/api/nda/record",
    summary: "Read an investor's NDA record",
    description:
      "The template version, each step with its time and actor, the signer's evidence, the hashes and the files.",
    tag: "NDA",
    auth: "administrator",
    query: ndaRecordQuerySchema,
    answers: {
      200: { description: "The record.", schema: ndaRecordSchema },
      400: badInput,
      401: notSignedIn,
      403: refused("The token is not an administrator's."),
      404: refused("No investor has this id."),
    },
  },
  {
    operationId: "deleteInvestor",
    method: "post",
    path: "/api/user/delete_investor",
    summary: "Delete an investor",
    description: "Deletes an investor, their sessions and tokens.",
    tag: "Investors",
    auth: "administrator",
    body: { schema: deleteInvestorSchema, required: true, name: "DeleteInvestorRequest" },
    answers: {
      201: { description: "The investor is deleted.", schema: messageAnswerSchema },
      ...bodyRefusals("The token is not an administrator's, or the id is an administrator's."),
      401: notSignedIn,
      404: refused("No investor has this id."),
    },
  },
  {
    operationId: "getAuditLog",
    method: "get",
    path: "/api/audit",
    summary: "Read the audit log",
    description:
      "The audit log, newest first, 50 events a page, each in words with its details; filtered by who caused it (`person`), its kind, whom it concerned (`investor`) and days (UTC). `nextCursor` leads to older events.",
    tag: "Audit",
    auth: "administrator",
    query: auditLogQuerySchema,
    answers: {
      200: { description: "A page of the audit log.", schema: auditLogSchema },
      400: badInput,
      401: notSignedIn,
      403: refused("The token is not an administrator's."),
    },
  },
  {
    operationId: "listMaterials",
    method: "get",
    path: "/api/materials",
    summary: "List the materials",
    description:
      "The documents the caller may open, with their latest versions: for an investor whose NDA is signed, those published to them; for an administrator, the whole library, published or not, with each one's audience. Each opens at its `url` in a browser signed in to the portal.",
    tag: "Materials",
    auth: "bearer",
    answers: {
      200: { description: "The documents, in the library's order.", schema: materialListSchema },
      401: notSignedIn,
      403: refused("The investor's NDA is not signed yet."),
    },
  },
  {
    operationId: "uploadMaterial",
    method: "post",
    path: "/api/materials",
    summary: "Upload a document, as a draft",
    description:
      "Adds a new document at the end of the library as a draft (`published` false): a PDF or an MP4 video (with WebVTT captions, if any), its title, description and audience. Investors do not see it until an administrator previews and publishes it on its page of the portal, after confirming it's them. The file is judged by its bytes, not its name; a PDF must parse, so that each investor's copy can be stamped.",
    tag: "Materials",
    auth: "administrator",
    upload: { schema: materialUploadSchema, name: "MaterialUpload", fileTypes: MATERIAL_FILE_TYPES },
    answers: {
      201: { description: "The new document, a draft that investors do not see yet.", schema: materialSchema },
      ...uploadRefusals("The token is not an administrator's."),
    },
  },
  {
    operationId: "addMaterialVersion",
    method: "post",
    path: "/api/materials/{id}/versions",
    summary: "Replace a document by a new version",
    description:
      "Replaces a document by a new version of the same kind (a PDF for a PDF, a video for a video); earlier versions are kept, and investors get the new one from now on.",
    tag: "Materials",
    auth: "administrator",
    pathParameters: materialIdParameter,
    upload: { schema: materialVersionUploadSchema, name: "MaterialVersionUpload", fileTypes: MATERIAL_FILE_TYPES },
    answers: {
      201: { description: "The new version's number.", schema: materialVersionSchema },
      ...uploadRefusals("The token is not an administrator's."),
      404: refused("No document has this id."),
    },
  },
  {
    operationId: "getReadingReport",
    method: "get",
    path: "/api/materials/report",
    summary: "Read the reading report",
    description:
      "Who read what: for each document of the library, how many people opened it, how many times, and when first and last.",
    tag: "Materials",
    auth: "administrator",
    answers: {
      200: { description: "The reading report.", schema: readingReportSchema },
      401: notSignedIn,
      403: refused("The token is not an administrator's."),
    },
  },
  {
    operationId: "getMaterialReaders",
    method: "get",
    path: "/api/materials/{id}/readers",
    summary: "List one document's readers",
    description: "Who opened one document: each person, how many times, and when first and last.",
    tag: "Materials",
    auth: "administrator",
    pathParameters: materialIdParameter,
    answers: {
      200: { description: "The document and its readers.", schema: materialReadersSchema },
      400: refused("The id holds a control character."),
      401: notSignedIn,
      403: refused("The token is not an administrator's."),
      404: refused("No document has this id."),
    },
  },
  ...afterMaterialsCalls({ refused, badInput, notSignedIn, bodyRefusals, message: messageAnswerSchema, emptyBody }),
];

/** Every call, with what any call may also answer: each reads the database, which may be unavailable. */
export const apiOperations: ApiOperation[] = calls.map((operation) => ({
  ...operation,
  answers: { ...operation.answers, 503: unavailable },
}));

/** A named answer shape, for typing a route's answer: `{ … } satisfies AnswerOf<"LoginAnswer">`. */
export type AnswerOf<Shape extends keyof typeof answerShapes> = z.input<(typeof answerShapes)[Shape]>;
