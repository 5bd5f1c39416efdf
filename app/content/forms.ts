/** What every page form answers when its body cannot be read as a form at all (a script's request, not a person's). */
export const formBodyErrors = {
  wrongContentType: "This form must be sent as a web form (application/x-www-form-urlencoded or multipart/form-data).",
  unreadable: "We could not read this form. Please fill it in and send it again.",
} as const;

/**
 * What a page form answers for text holding a control character (NUL, ESC, …, but not tab or a line
 * break): nothing a person types, so no field takes one.
 */
export const controlCharacterErrors = {
  field:
    "This field holds an invisible control character (such as NUL) that cannot be sent: remove it, or type the text in again.",
  name: "This form holds an invisible control character (such as NUL) in a field's name, so it cannot be sent.",
} as const;
