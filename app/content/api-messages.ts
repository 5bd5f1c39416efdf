import { AUTH_BODY_LIMIT_BYTES } from "./constants";
import { httpErrors } from "./http-errors";

/** What the JSON API answers in `message` when it refuses a request before any use case runs. */
export const apiMessages = {
  refreshRefused: "Your session has ended. Please log in again.",
  unauthenticated: "Authentication required: send a valid access token as 'Authorization: Bearer <token>'.",
  forbidden: "You do not have permission to do this.",
  methodNotAllowed: httpErrors.methodNotAllowed,
  tooLarge: httpErrors.tooLarge(AUTH_BODY_LIMIT_BYTES),
  unsupportedMediaType: "The request body must be JSON (Content-Type: application/json).",
  notUtf8: "The request body is not valid UTF-8.",
  malformedJson: "The request body is not valid JSON.",
  notAnObject: "The request body must be a JSON object.",
  repeatedField: (field: string) => `The field '${field}' appears more than once.`,
  fieldRequired: (field: string) => `'${field}' is required.`,
  fieldType: (field: string, expected: string) => `'${field}' must be ${expected}.`,
  fieldInvalid: (field: string) => `'${field}' is not valid.`,
  stateNotBoolean: "'state' must be true or false.",
  idNotText: "'id' must be a string.",
  idEmpty: "'id' must not be empty.",
  idTooLong: "'id' is too long.",
} as const;
