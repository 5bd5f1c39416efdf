/** The words of the trace of a copy: whose stamped copy a download id, or a PDF found outside, is. */
export const tracePage = {
  title: "Trace a copy",
  link: "Trace a copy",
  description: "Find whose stamped copy a download ID, or a PDF found outside, is.",
  heading: "Trace a copy",
  intro:
    "Every copy an investor opens is stamped with their name and a download ID, which is also written into the file's metadata. Paste a download ID, or upload a PDF found outside the portal, to see whose copy it is. Each lookup is recorded in the audit log.",
  pasteLegend: "Paste a download ID",
  downloadId: "Download ID",
  downloadIdHint: "As printed at the foot of each page: 36 letters, digits and dashes.",
  paste: "Look up",
  uploadLegend: "Or upload a PDF",
  file: "PDF file",
  fileHint: "Read here and not kept. Up to 50 MB.",
  upload: "Read and look up",
  found: {
    heading: "Whose copy it is",
    reader: "Stamped for",
    delivered: "Delivered",
    document: "Document",
    version: "Version",
    address: "Sent to the address",
    downloadId: "Download ID",
    readFrom: { metadata: "Read from the file's metadata.", stamp: "Read from the stamp's text." },
    notDelivered: "The reader left before the last byte: the copy may be partial.",
    unknownAddress: "Not recorded",
    shippedFile: (file: string) => `${file} (the investor PDF)`,
  },
  notACopy: "Not a copy from this portal.",
  notACopyDetail: {
    pasted: "No copy with this download ID was made here.",
    upload: "This PDF carries no download ID of this portal, in its metadata or in a stamp's text.",
    unknownId: "This PDF carries a download ID no copy of this portal has.",
  },
  back: "Back to the investors",
};

export const traceMessages = {
  badDownloadId: "Enter a download ID as printed on the copy: 36 letters, digits and dashes.",
  nothingGiven: "Paste a download ID or choose a PDF file.",
  notPdf: "This file is not a PDF. Upload the PDF file itself.",
  unreadable:
    "This PDF could not be read (it may be damaged, encrypted or too costly to read), so its download ID could not be found.",
  tooLarge: (megabytes: string) => `This file is larger than ${megabytes}. A copy from the portal is never that large.`,
  oneFileOnly: "Choose one PDF file at a time.",
};
