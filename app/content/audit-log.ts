/** The words of the audit log: each recorded event as a sentence, its details' labels, the filters and the export. */

/** What a sentence may say of an event: its target (an e-mail address, or an id) and its details. */
export type AuditEventFacts = { target: string | null; details: Record<string, unknown> };

type EventWords = {
  /** The event's kind, as the filter offers it. */
  kind: string;
  says: (facts: AuditEventFacts) => string;
};

const whom = (target: string | null) => target ?? "an unknown account";
const flag = (value: unknown) => value === true || value === "true" || value === 1;

const methods: Record<string, string> = {
  password: "password",
  "password+totp": "password and authenticator",
  "password+recovery_code": "password and recovery code",
  "password+passkey": "password and passkey",
  passkey: "passkey",
};

const titleOf = (details: Record<string, unknown>) =>
  typeof details.title === "string" ? `"${details.title}"` : "a document";
const versionOf = (details: Record<string, unknown>) =>
  typeof details.version === "number" ? ` (version ${details.version})` : "";

const methodOf = (details: Record<string, unknown>) =>
  typeof details.method === "string" ? (methods[details.method] ?? details.method) : "an unrecorded method";

/**
 * Every action the code records, in words. tests/unit/audit-log-words.test.ts holds each action written in
 * app/ and scripts/ to having an entry here.
 */
export const auditEvents: Record<string, EventWords> = {
  "account.registered": { kind: "Account registered", says: () => "Registered an account" },
  "account.verified": { kind: "E-mail address verified", says: () => "Verified their e-mail address" },
  "account.reauthenticated": {
    kind: "Identity confirmed",
    says: ({ details }) => `Confirmed their identity with ${methodOf(details)}`,
  },
  "account.locked": { kind: "Account locked", says: () => "Account locked after repeated failed sign-ins" },
  "login.succeeded": { kind: "Signed in", says: ({ details }) => `Signed in with ${methodOf(details)}` },
  "login.password_verified": {
    kind: "Password accepted",
    says: () => "Entered the right password; the second factor comes next",
  },
  "login.failed": {
    kind: "Sign-in failed",
    says: ({ details }) =>
      details.reason === "unknown_email" ? "Failed to sign in: no account has this address" : "Failed to sign in",
  },
  "password.confirm_failed": {
    kind: "Password confirmation failed",
    says: () => "Entered a wrong password to confirm their identity",
  },
  "password.reset_requested": { kind: "Password reset requested", says: () => "Asked for a password reset link" },
  "password.reset": { kind: "Password reset", says: () => "Set a new password with a reset link" },
  "password.changed": { kind: "Password changed", says: () => "Changed their password while signed in" },
  "session.signed_out": { kind: "Session signed out", says: () => "Signed out one of their other sessions" },
  "session.others_signed_out": {
    kind: "Signed out everywhere else",
    says: () => "Signed out every other session and ended their API access",
  },
  "api_access.revoked": { kind: "API access revoked", says: () => "Revoked one of their API sign-ins" },
  "admin.created": {
    kind: "Administrator created",
    says: ({ target }) => `Created the administrator ${whom(target)} on the server`,
  },
  "admin.promoted": {
    kind: "Administrator reset on the server",
    says: ({ target }) => `Made ${whom(target)} an administrator, with a new password, on the server`,
  },
  "admin.invited": {
    kind: "Administrator invited",
    says: ({ target }) => `Invited ${whom(target)} as an administrator`,
  },
  "admin.invitation_revoked": {
    kind: "Administrator invitation revoked",
    says: ({ target }) => `Revoked the administrator invitation of ${whom(target)}`,
  },
  "admin.invitation_accepted": {
    kind: "Administrator invitation accepted",
    says: () => "Accepted an invitation and became an administrator",
  },
  "admin.removed": { kind: "Administrator removed", says: ({ target }) => `Removed the administrator ${whom(target)}` },
  "admin.factor_reset": {
    kind: "Administrator's second factor reset",
    says: ({ target }) => `Reset the second factor of the administrator ${whom(target)}`,
  },
  "mfa.totp_enrolled": { kind: "Authenticator set up", says: () => "Set up an authenticator app" },
  "mfa.totp_replaced": { kind: "Authenticator replaced", says: () => "Replaced their authenticator app" },
  "mfa.recovery_codes_regenerated": { kind: "Recovery codes renewed", says: () => "Made new recovery codes" },
  "mfa.recovery_codes_issued": { kind: "Recovery codes made", says: () => "Made their first recovery codes" },
  "mfa.recovery_code_used": { kind: "Recovery code used", says: () => "Used a recovery code" },
  "mfa.removed": { kind: "Second factor turned off", says: () => "Turned off their second factor" },
  "mfa.passkey_added": { kind: "Passkey added", says: () => "Added a passkey" },
  "mfa.passkey_removed": { kind: "Passkey removed", says: () => "Removed a passkey" },
  "mfa.passkey_renamed": {
    kind: "Passkey renamed",
    says: ({ details }) =>
      typeof details.name === "string" ? `Renamed a passkey to "${details.name}"` : "Renamed a passkey",
  },
  "mfa.failed": { kind: "Second factor refused", says: () => "Gave a second factor that was refused" },
  "mfa.locked": { kind: "Second factor locked", says: () => "Second factor step locked after repeated wrong codes" },
  "materials.view": {
    kind: "Materials viewed",
    says: ({ details }) => `Viewed ${typeof details.page === "string" ? details.page : "the materials"}`,
  },
  "materials.download": {
    kind: "Materials downloaded",
    says: ({ details }) => `Downloaded ${typeof details.file === "string" ? details.file : "the materials"}`,
  },
  "file.viewed": {
    kind: "File opened",
    says: ({ details }) => `Opened ${typeof details.file === "string" ? details.file : "a protected file"}`,
  },
  "file.download": {
    kind: "File downloaded",
    says: ({ details }) => `Downloaded ${typeof details.file === "string" ? details.file : "a protected file"}`,
  },
  "file.undelivered": {
    kind: "File not delivered",
    says: ({ details }) =>
      `Left before ${typeof details.file === "string" ? details.file : "a protected file"} had arrived: the copy was not delivered`,
  },
  "copy.traced": {
    kind: "Copy traced",
    says: ({ target, details }) => {
      const id = typeof details.downloadId === "string" ? `download ID ${details.downloadId}` : "no download ID";
      const given = details.source === "upload" ? `an uploaded PDF (${id})` : id;
      return flag(details.found)
        ? `Traced ${given} to the copy of ${whom(target)}`
        : `Looked up ${given}: not a copy from this portal`;
    },
  },
  "alerts.changed": {
    kind: "Alert e-mails changed",
    says: ({ details }) => {
      const hour = typeof details.digestHour === "number" ? String(details.digestHour).padStart(2, "0") : "??";
      const chose =
        details.mode === "openings"
          ? "an e-mail on each first opening of a document"
          : details.mode === "digest"
            ? `a daily digest at ${hour}:00 UTC`
            : "no alert e-mails";
      const via =
        details.via === "one-click"
          ? " (one click in an alert e-mail)"
          : details.via === "signed-link"
            ? " (the link of an alert e-mail)"
            : "";
      return `Chose ${chose}${via}`;
    },
  },
  "material.opened": {
    kind: "Document opened",
    says: ({ details }) => `Opened ${titleOf(details)}${versionOf(details)}`,
  },
  "material.undelivered": {
    kind: "Document not delivered",
    says: ({ details }) =>
      `Left before ${titleOf(details)}${versionOf(details)} had arrived: the copy was not delivered, and is not counted as read`,
  },
  "material.refused": {
    kind: "Document refused",
    says: ({ details }) => `Was refused ${titleOf(details)}, which is not shared with them`,
  },
  "material.uploaded": {
    kind: "Document uploaded",
    says: ({ details }) => `Uploaded ${titleOf(details)}`,
  },
  "material.replaced": {
    kind: "Document replaced",
    says: ({ details }) => `Replaced ${titleOf(details)} with version ${String(details.version ?? "?")}`,
  },
  "material.edited": {
    kind: "Document edited",
    says: ({ details }) => `Edited the title or description of ${titleOf(details)}`,
  },
  "material.moved": {
    kind: "Document moved",
    says: ({ details }) => `Moved a document ${details.direction === "up" ? "up" : "down"} the list`,
  },
  "material.published": { kind: "Document published", says: ({ details }) => `Published ${titleOf(details)} again` },
  "material.unpublished": { kind: "Document unpublished", says: ({ details }) => `Unpublished ${titleOf(details)}` },
  "material.audience_changed": {
    kind: "Document audience changed",
    says: ({ details }) =>
      details.audience === "chosen"
        ? `Shared a document with ${Array.isArray(details.chosen) ? details.chosen.length : "some"} chosen investors`
        : "Shared a document with every investor whose NDA is signed",
  },
  "material.report_exported": {
    kind: "Reading report exported",
    says: () => "Exported the reading report of the library as CSV",
  },
  "material.engagement_exported": {
    kind: "Engagement ranking exported",
    says: () => "Exported the investors' engagement ranking as CSV",
  },
  "material.download_changed": {
    kind: "Document download changed",
    says: ({ details }) =>
      details.downloadable === true
        ? `Let investors download ${titleOf(details)}`
        : `Showed ${titleOf(details)} in the viewer only`,
  },
  "material.readers_exported": {
    kind: "Document's readers exported",
    says: ({ details }) => `Exported the readers of ${titleOf(details)} as CSV`,
  },
  "investor.readings_exported": {
    kind: "Investor's readings exported",
    says: ({ target }) => `Exported the documents ${whom(target)} opened as CSV`,
  },
  "nda.sent.changed": {
    kind: "NDA sent changed",
    says: ({ target, details }) => `Marked the NDA ${flag(details.state) ? "sent" : "not sent"} for ${whom(target)}`,
  },
  "nda.signed.changed": {
    kind: "NDA signed changed",
    says: ({ target, details }) =>
      `Marked the NDA ${flag(details.state) ? "signed" : "not signed"} for ${whom(target)}`,
  },
  "nda.template.uploaded": {
    kind: "NDA template uploaded",
    says: ({ details }) => `Uploaded version ${String(details.version)} of the NDA template`,
  },
  "nda.offered": {
    kind: "NDA offered",
    says: ({ target, details }) =>
      `Offered ${whom(target)} their copy of the NDA (version ${String(details.templateVersion)})`,
  },
  "nda.opened": {
    kind: "NDA opened",
    says: ({ target }) => `Opened the NDA copy of ${whom(target)}`,
  },
  "nda.verified": {
    kind: "Signed NDA verified",
    says: ({ target, details }) =>
      `Verified an uploaded NDA (SHA-256 ${String(details.sha256)}): ${details.matched ? `a file this portal sealed for ${whom(target)}` : "not a file this portal stored"}, seal ${String(details.seal)}`,
  },
  "nda.downloaded": {
    kind: "Signed NDA downloaded",
    says: ({ target }) => `Downloaded the signed NDA of ${whom(target)}`,
  },
  "nda.consent.given": {
    kind: "Consent to e-records",
    says: () => "Consented to electronic records and signatures",
  },
  "nda.consent.withdrawn": {
    kind: "Consent withdrawn",
    says: () => "Withdrew consent to electronic records and signatures",
  },
  "nda.consent.withdrawal_mailed": {
    kind: "Consent withdrawal e-mail",
    says: ({ details }) =>
      flag(details.mailed)
        ? "E-mailed the firm that consent to electronic records was withdrawn"
        : "Could not e-mail the firm that consent to electronic records was withdrawn",
  },
  "nda.signed": {
    kind: "NDA signed",
    says: ({ target, details }) => `Signed the NDA as ${whom(target)} (SHA-256 ${String(details.sha256)})`,
  },
  "nda.countersigned": {
    kind: "NDA countersigned",
    says: ({ target, details }) => `Countersigned the NDA of ${whom(target)} (SHA-256 ${String(details.sha256)})`,
  },
  "nda.completed": {
    kind: "NDA completed",
    says: ({ target }) => `Completed the NDA of ${whom(target)}: the materials are open`,
  },
  "nda.recorded_outside": {
    kind: "NDA completed by hand",
    says: ({ target, details }) =>
      `Marked the NDA of ${whom(target)} completed by hand, signed outside the portal` +
      (typeof details.sha256 === "string"
        ? `, with the signed copy (SHA-256 ${details.sha256})`
        : ", no copy attached") +
      (typeof details.reason === "string" ? `: "${details.reason}"` : ""),
  },
  "nda.outside_removed": {
    kind: "NDA signed outside removed",
    says: ({ target, details }) =>
      `Removed the record of the NDA of ${whom(target)} signed outside the portal` +
      (typeof details.sha256 === "string" ? `, and its signed copy (SHA-256 ${details.sha256})` : ""),
  },
  "nda.mailed": {
    kind: "Signed NDA e-mail",
    says: ({ target, details }) =>
      `E-mailed the signed NDA: to ${whom(target)} ${flag(details.investor) ? "sent" : "not sent"}, to the firm ${flag(details.firm) ? "sent" : "not sent"}`,
  },
  "investor.materials_mailed": {
    kind: "Materials-open e-mail",
    says: ({ target, details }) =>
      flag(details.mailed)
        ? `E-mailed ${whom(target)} that the materials are open`
        : `Could not e-mail ${whom(target)} that the materials are open`,
  },
  "settings.changed": {
    kind: "Settings changed",
    says: ({ details }) =>
      `Turned questions and answers ${flag(details.questions) ? "on" : "off"}, qualification ${flag(details.qualification) ? "on" : "off"} and indications of interest ${flag(details.interest) ? "on" : "off"}`,
  },
  "question.asked": { kind: "Question asked", says: () => "Asked the firm a question" },
  "question.answered": {
    kind: "Question answered privately",
    says: ({ target }) => `Answered a question of ${whom(target)} privately`,
  },
  "question.published": { kind: "Answer published", says: () => "Published an answer to every reader" },
  "question.answer_edited": { kind: "Published answer edited", says: () => "Edited a published answer" },
  "question.closed": { kind: "Question closed", says: () => "Closed a question" },
  "qualification.stated": {
    kind: "Qualification stated",
    says: ({ details }) =>
      details.category === "not_accredited"
        ? "Stated they are not an accredited investor"
        : "Stated how they qualify as an accredited investor",
  },
  "verification.recorded": {
    kind: "Verification recorded",
    says: ({ target }) => `Recorded a verification of how ${whom(target)} qualifies`,
  },
  "interest.indicated": { kind: "Interest indicated", says: () => "Indicated a non-binding amount of interest" },
  "interest.withdrawn": { kind: "Interest withdrawn", says: () => "Withdrew their indication of interest" },
  "interest.exported": { kind: "Interest exported", says: () => "Exported the indications of interest as CSV" },
  "investor.deleted": { kind: "Investor deleted", says: ({ target }) => `Deleted the investor ${whom(target)}` },
  "investor.corrected": {
    kind: "Investor corrected",
    says: ({ target }) => `Corrected the details of ${whom(target)}`,
  },
  "investor.verification_resent": {
    kind: "Verification e-mail sent again",
    says: ({ target }) => `Sent the verification e-mail again to ${whom(target)}`,
  },
  "investor.factor_reset": {
    kind: "Investor's second factor reset",
    says: ({ target }) => `Reset the second factor of ${whom(target)}`,
  },
  "investors.exported": { kind: "Investors exported", says: () => "Exported the investor table as CSV" },
  "profile.name_address.set": {
    kind: "Name and address set",
    says: ({ target }) => `Set the name and address of ${whom(target)}`,
  },
  "profile.name_address.corrected": {
    kind: "Name and address corrected",
    says: ({ target }) => `Corrected the name and address of ${whom(target)}`,
  },
  "account.data_exported": { kind: "Own data downloaded", says: () => "Downloaded a copy of their own data" },
  "audit.exported": { kind: "Audit log exported", says: () => "Exported the audit log, signed" },
  "audit.resealed": { kind: "Audit trail re-sealed", says: () => "Re-sealed the audit trail under the audit key" },
};

/** The labels of the details' keys; a key without one is shown as it is stored. */
export const auditDetailLabels: Record<string, string> = {
  method: "Method",
  via: "Through",
  next: "Next step",
  reason: "Reason",
  page: "Page",
  file: "File",
  range: "Byte range",
  downloadId: "Download",
  state: "New state",
  isNDASent: "NDA sent",
  isNDASigned: "NDA completed",
  mailed: "Investor e-mailed",
  left: "Recovery codes left",
  kind: "Factor",
  step: "Step",
  until: "Locked until",
  otherSessionsEnded: "Other sessions ended",
  secondFactor: "Second factor",
  query: "Filters",
  rows: "Rows",
  person: "Person",
  action: "Event",
  investor: "Investor",
  from: "From",
  to: "To",
  seal: "Seal",
  previousSeal: "Previous seal",
  previousHead: "Previous head",
  previousChain: "Previous chain",
  gaps: "Gaps",
  text: "Text",
  invitedBy: "Invited by",
  before: "Before",
  after: "After",
  fullName: "Full name",
  address: "Address",
  expiresAt: "Link expires",
  replacedEarlierLink: "Replaced an earlier link",
  accountDeleted: "Account deleted",
  by: "By",
  name: "Name",
  session: "Session",
  family: "API sign-in",
};

/** Stored values that read better in words, by the key they are stored under. */
export const auditDetailValues: Record<string, Record<string, string>> = {
  method: { ...methods, GET: "GET", HEAD: "HEAD" },
  via: { web: "the website", api: "the API" },
  reason: { wrong_password: "wrong password", unknown_email: "unknown e-mail address" },
  kind: { totp: "authenticator code", recovery: "recovery code", passkey: "passkey" },
  step: { enrolment: "setting up the authenticator" },
};

export const auditLogContent = {
  yes: "Yes",
  no: "No",
  none: "none",
  noDetails: "No details",
  unknownActor: "Unknown",
  columns: {
    row: "Row",
    when: "When",
    who: "Who",
    what: "Event code",
    whom: "Whom",
    details: "Details",
    ip: "Client address",
  },
  filters: {
    legend: "Filter the log",
    person: "Person (e-mail)",
    kind: "Event",
    anyKind: "Any event",
    investor: "Investor (e-mail)",
    from: "From (UTC)",
    to: "To (UTC)",
    apply: "Filter",
    clear: "Clear filters",
  },
  exportLink: "Export (signed JSON Lines)",
  exportFileName: "audit-log.jsonl",
  newest: "Newest events",
  older: "Older events",
  shown: (count: number) => `${count} ${count === 1 ? "event" : "events"} on this page, newest first.`,
  emptyFiltered: "No events match these filters.",
  rowLabel: (row: number) => `Row ${row}`,
  errors: {
    email: "Enter an e-mail address, like name@example.com.",
    kind: "Choose an event from the list.",
    date: "Enter a date as YYYY-MM-DD.",
    range: "The start date must be on or before the end date.",
    cursor: "The page link is not valid: start again from the newest events.",
  },
} as const;
