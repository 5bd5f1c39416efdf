/**
 * What an action answers (status 400 and the like) when it refuses a page's
 * form: each field's messages by field name ("" for the form as a whole) and
 * the values to put back in the fields. The server builds it
 * (form-submission.server.ts); the form components only read it.
 */
export type FormReply = {
  error: Record<string, string[]>;
  initialValue: Record<string, string>;
};
