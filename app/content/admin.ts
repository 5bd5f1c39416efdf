/** The words of the administrator's pages: the investor table, delete, the audit log. */
export const adminContent = {
  table: {
    heading: "Investors",
    caption: "Registered investors",
    searchLabel: "Search by name or e-mail",
    filterLabel: "NDA state",
    filters: {
      all: "All",
      "not-sent": "NDA not sent",
      sent: "NDA sent, not signed",
      countersign: "NDA waiting for countersignature",
      signed: "NDA signed",
    },
    apply: "Search",
    clear: "Clear",
    csv: "Export CSV",
    columns: {
      name: "Full name",
      email: "E-mail",
      address: "Address",
      registered: "Registration time",
      ndaSent: "NDA sent",
      ndaSigned: "NDA completed",
      delete: "Delete",
    },
    yes: "Yes",
    no: "No",
    save: "Save",
    delete: "Delete",
    total: (count: number) => `${count} ${count === 1 ? "investor" : "investors"}`,
    empty: "No investors match.",
    pagination: "Pages",
    pageLabel: (page: number) => `Page ${page}`,
    previous: "Previous",
    next: "Next",
    ndaSentFor: (email: string) => `NDA sent for ${email}`,
    ndaSignedFor: (email: string) => `NDA completed for ${email}`,
    deleteFor: (email: string) => `Delete ${email}`,
    auditLink: "Audit log",
  },
  notices: {
    /** The specification's words, for the NDA completed flag. */
    ndaChanged: "NDA Sign state changed",
    ndaSentChanged: "NDA sent state changed",
    failed: "Something went wrong!",
    deleted: "The investor was deleted.",
  },
  errors: {
    notFound: "No investor has this e-mail address or id.",
    administrator: "Administrators cannot be deleted.",
    forbidden: "You do not have permission to see this page.",
  },
  deletePage: {
    title: "Delete investor",
    description: "Confirm deleting an investor.",
    question: "Do you want to delete this entry?",
    confirm: "Delete",
    cancel: "Cancel",
  },
  audit: {
    title: "Audit log",
    description: "Recent administrator and account events.",
    heading: "Audit log",
    caption: "Audit events, newest first",
    columns: { when: "When", who: "Who", what: "What", whom: "Whom", details: "Details" },
    empty: "No events yet.",
    back: "Back to investors",
    pageOf: (page: number, count: number) => `Page ${page} of ${count}`,
    pages: "Audit pages",
    newer: "Newer events",
    older: "Older events",
    chain: {
      label: "Hash chain",
      intact: (rows: number, lastRow: number, at: string) =>
        `Verified: ${rows} ${rows === 1 ? "row" : "rows"} unaltered, up to row ${lastRow} (recorded ${at}).`,
      empty: "Verified: no rows yet.",
      verifiedUpTo: (lastRow: number, at: string) => `Verified: unaltered up to row ${lastRow} (recorded ${at}).`,
      showRow: (row: number) => `Show row ${row}`,
      broken: "Broken.",
      changed: (row: number) => `Row ${row} was changed after it was written: its hash does not match its content.`,
      unchained: (row: number) => `Row ${row} was written around the chain: it has no hash.`,
      missing: (row: number) =>
        `Row ${row} follows a row that is not in the trail: a row before it was deleted or rewritten.`,
      outOfOrder: (row: number, follows: number) =>
        `Row ${row} is out of order: it was written right after row ${follows}, not after the row now before it.`,
      gap: (row: number, after: number) =>
        `Row ${row} follows row ${after}: the rows between are missing, and no re-seal of the trail recorded the gap.`,
      verifiedBefore: (rows: number) => `The ${rows} ${rows === 1 ? "row" : "rows"} before it verify.`,
      holdsExport: (rows: number, lastRow: number | null) =>
        lastRow === null
          ? "The export holds no rows."
          : `The live trail still holds all ${rows} ${rows === 1 ? "row" : "rows"} of the export, unchanged and in order, up to row ${lastRow}.`,
      cut: (row: number, liveLast: number | null) =>
        `The live trail ends ${liveLast === null ? "with no rows" : `at row ${liveLast}`}, but the export holds row ${row}: rows were cut from its end.`,
      deleted: (row: number) => `Row ${row} of the export is no longer in the live trail: it was deleted.`,
      rewritten: (row: number) =>
        `Row ${row} of the live trail is not the row the export holds: it was rewritten after the export was made.`,
    },
    export: {
      written: (rows: number, file: string) => `Exported ${rows} ${rows === 1 ? "row" : "rows"} to ${file}, signed.`,
      verified: "Export verified: the signature matches and the rows' chain is whole.",
      unreadable: "The export cannot be read: it is missing, or a line is not a row of the trail.",
      unsigned: "The export has no signature line: it was cut short or is not an audit export.",
      signature: "The export's signature does not match: the file was changed, or signed with another AUDIT_KEY.",
      exists: (file: string) => `${file} exists already: name a new file.`,
      usage: "Usage: npm run audit:export -- <file>",
    },
  },
  csvHeader: ["Full name", "E-mail", "Address", "Registration time (UTC)", "NDA sent", "NDA completed"],
  csvFileName: "investors.csv",
} as const;
