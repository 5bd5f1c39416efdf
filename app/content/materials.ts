import { firm } from "./firm";

/** The materials library's words: the investors' list, the administrators' library and their refusals. */
export const materialsMessages = {
  notFound: "There is no such document.",
  stampingBusy: (seconds: number) => `Many copies are being prepared just now. Please try again in ${seconds} seconds.`,
  readerBusy: (seconds: number) =>
    `You have asked for many copies at once, and they are being prepared. Please try again in ${seconds} seconds.`,
  notInAudience: "This document is not shared with you.",
  audienceNotInvestors: "Only investors can be chosen as a document's audience.",
  wrongKindForVersion: "A new version must be of the same kind as the document: a PDF for a PDF, a video for a video.",
  emptyFile: "The file is empty.",
  wrongType: "The file is not a PDF or an MP4 video, whatever its name says.",
  notStampable:
    "The PDF cannot be read, so it cannot be stamped for each investor. Save it again as a PDF and upload it.",
  tooLarge: (limit: string) => `The file is larger than ${limit}.`,
  tooManyPages: (pages: number, most: number) =>
    `The PDF has ${pages.toLocaleString("en-US")} pages; the library takes at most ${most.toLocaleString("en-US")}, since every page of each investor's copy is stamped. Split it into shorter documents and upload them.`,
  tooMuchContent: (limit: string) =>
    `The PDF's pages unpack to more than ${limit} of drawing instructions, far more than a real document holds, so stamping each investor's copy would cost too much. Save it again as a PDF (or print it to a new PDF) and upload that.`,
  tooSlowToStamp: (seconds: number) =>
    `Stamping one investor's copy of this PDF took longer than ${seconds} seconds, too long for each download. Save it again with fewer or simpler pages and upload it.`,
  oneFileOnly: "The form sent more than one file. An upload takes one file: send them one at a time.",
  oneCaptionsFileOnly: "The form sent more than one captions file. A video takes one WebVTT file.",
  captionsWrongType: "The captions file must be a WebVTT file (it starts with WEBVTT).",
  captionsOnlyForVideo: "Captions go with a video only.",
  videoIncomplete: "The video is not whole: it may have been cut off while it was sent. Upload it again.",
  fieldTooLarge: "A field of this form is too long.",
  noCaptions: "This video has no captions.",
  notAVideo: "This document is not a video.",
  noSuchVersion: "There is no such version of this document.",
} as const;

/** The investor's side: the materials page's list, and a video's page. */
export const libraryView = {
  intro:
    "Every material shared with you, once, in its latest version. PDFs open in your browser, stamped with your name.",
  kinds: { pdf: "PDF", video: "Video" },
  marks: { new: "New", updated: "Updated" },
  /** "PDF, 1.4 MB, updated November 27, 2026" */
  facts: (kind: string, size: string, date: string) => `${kind}, ${size}, updated ${date}`,
  videoFallbackTitle: "Video",
  videoDescription: `A video from ${firm.shortName} for investors, behind its disclaimer.`,
  captionsLabel: "English captions",
  refusalHeading: "This document is not shared with you",
  backToMaterials: "Back to the materials",
} as const;
