/** What a visitor or API client is told when a request fails before any page could answer it. */
export const httpErrors = {
  badRequest: "The request could not be understood. Check the address and try again.",
  controlCharacter:
    "The address holds a control character (such as NUL, written %00) that this site does not accept. Check the address and try again.",
  methodNotAllowed: "This method is not allowed here.",
  crossOrigin: (expected: string) =>
    `Cross-origin request refused. This site takes forms only from its own address, ${expected}: open it there and try again.`,
  lengthRequired: "A Content-Length header is required.",
  tooLarge: (limit: number) => `The request body is larger than ${limit} bytes.`,
  failed: "Something went wrong. Please try again in a moment.",
  homeLink: "Go to the home page",
  /** The metrics' own listener (METRICS_PORT), which an operator's Prometheus reads. */
  metrics: {
    notFound: "Not found: this listener serves GET /metrics only.",
    unauthorized: "The metrics need the bearer token set in METRICS_TOKEN.",
  },
  titles: {
    400: "Bad request",
    403: "Request refused",
    405: "Method not allowed",
    411: "Length required",
    413: "Request too large",
    500: "Something went wrong",
  } as Record<number, string>,
};
