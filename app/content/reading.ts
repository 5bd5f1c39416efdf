import { firm } from "./firm";

/**
 * The in-page viewer's words, the notice investors read about what it measures, and the refusals of
 * reading events the server finds implausible.
 */
export const viewerText = {
  fallbackTitle: "Document",
  description: "A document of the materials, stamped with your name, in the page's viewer.",
  /** What the viewer measures, said where investors read (docs/decisions/0035). */
  privacyNotice: () =>
    `While you read a PDF in this viewer, ${firm.shortName} records which page is on screen and for how long, counted only while the tab is visible and you are active (a minute without a key, a scroll or a touch stops the count). It is kept with your stamped copy and seen only by ${firm.shortName}'s administrators. Nothing else on your screen or device is recorded.`,
  privacyHeading: "What this viewer records",
  videoPrivacyNotice: () =>
    `While you watch, ${firm.shortName} records which parts of this video were played and where you stopped, seen only by ${firm.shortName}'s administrators.`,
  toolbarLabel: "Document controls",
  previous: "Previous page",
  next: "Next page",
  pageNumber: "Page number",
  go: "Go",
  of: (pages: number) => `of ${pages}`,
  zoomOut: "Zoom out",
  zoomIn: "Zoom in",
  fitWidth: "Fit to width",
  zoomLevel: (percent: number) => `Zoom ${percent}%`,
  pageLabel: (page: number, pages: number) => `Page ${page} of ${pages}`,
  pageText: (page: number) => `Text of page ${page}`,
  keyboardHelp:
    "Keys in the document: Left and Right arrows or Page Up and Page Down turn the page, Home and End go to the first and last, + and - zoom.",
  loading: "Preparing your stamped copy…",
  failed: "The document could not be shown here.",
  download: "Download your stamped copy (PDF)",
  openPdf: "Open your stamped copy (PDF)",
  noScriptViewerOnly:
    "This document is shown in the page's viewer only, which needs JavaScript. Turn JavaScript on to read it.",
  backToMaterials: "Back to the materials",
} as const;

/** Why a batch of reading events was refused (nothing of it is stored). */
export const readingRefusals = {
  malformed: "The reading report is not in the expected form.",
  copyNotDelivered: "No copy of this document with that download id was delivered.",
  notYourCopy: "This copy was delivered to someone else.",
  pageBeyondDocument: (page: number, pages: number) => `Page ${page} is not in this document: it has ${pages} pages.`,
  moreTimeThanPassed: "The report counts more reading time than has passed since the copy was delivered.",
  otherStream: "This copy's reading is already reported from another window.",
  batchRepeated: "This batch of the copy's reading was already reported.",
  flood: (seconds: number) => `Too many reading reports for this copy. Please try again in ${seconds} seconds.`,
  notAPdf: "Only a PDF's reading is reported page by page.",
} as const;

/** Why a report of a video's played parts was refused (nothing of it is stored). */
export const watchingRefusals = {
  malformed: "The viewing report is not in the expected form.",
  notOpened: "This video was not opened by you, so there is no viewing to report.",
  notAVideo: "Only a video's viewing is reported in parts played.",
  rangeBeyondVideo: "A part played lies outside the video's length.",
  moreThanCouldPlay: "The report counts more of the video played than could have played since you opened it.",
  flood: (seconds: number) => `Too many viewing reports for this video. Please try again in ${seconds} seconds.`,
} as const;
