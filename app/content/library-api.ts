/** The materials API's own words: its refusals of an upload's text fields, and of an investor before the NDA. */

export const libraryApiMessages = {
  ndaNotSigned: "The materials open once your NDA is signed.",
  titleRequired: "'title' is required: the document's name as investors see it.",
  audienceInvalid: "'audience' must be 'signed' (every investor whose NDA is signed) or 'chosen'.",
  chosenRequired: "Name at least one investor's e-mail address in 'chosen' when 'audience' is 'chosen'.",
  fileRequired: "'file' is required: the PDF or MP4 video to publish.",
} as const;
