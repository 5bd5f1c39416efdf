import { API_INVESTOR_PAGE_MAX, AUTH_BODY_LIMIT_BYTES } from "./constants";
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
  controlCharacter: (field: string) =>
    `'${field}' must not hold a control character (U+0000 to U+001F, other than tab, line feed and carriage return).`,
  stateNotBoolean: "'state' must be true or false.",
  idNotText: "'id' must be a string.",
  idEmpty: "'id' must not be empty.",
  idTooLong: "'id' is too long.",
  limitInvalid: `'limit' must be a whole number from 1 to ${API_INVESTOR_PAGE_MAX}.`,
  offsetInvalid: "'offset' must be a whole number, 0 or more.",
  cursorInvalid: "'cursor' is not valid: send the nextCursor of the page before, as it came.",
  cursorWithOffset: "Send 'cursor' or 'offset', not both.",
} as const;
