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
  captionsWrongType: "The captions file must be a WebVTT file (it starts with WEBVTT).",
  captionsOnlyForVideo: "Captions go with a video only.",
  videoIncomplete: "The video is not whole: it may have been cut off while it was sent. Upload it again.",
  fieldTooLarge: "A field of this form is too long.",
  noCaptions: "This video has no captions.",
  notAVideo: "This document is not a video.",
  noSuchVersion: "There is no such version of this document.",
} as const;

/** The investor's side: the library beneath the materials page's links, and a video's page. */
export const libraryView = {
  heading: "Documents",
  intro:
    "Every document shared with you, the latest version of each. PDFs open in your browser, stamped with your name.",
  empty: "No documents are shared with you yet.",
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
