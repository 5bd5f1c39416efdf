/** What every page form answers when its body cannot be read as a form at all (a script's request, not a person's). */
export const formBodyErrors = {
  wrongContentType: "This form must be sent as a web form (application/x-www-form-urlencoded or multipart/form-data).",
  unreadable: "We could not read this form. Please fill it in and send it again.",
} as const;
