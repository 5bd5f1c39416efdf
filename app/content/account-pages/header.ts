/** The portal header's words (every /financing page), apart from the forms' so that neither page carries the other's. */
export const financingHeader = {
  logOut: "LOG OUT",
  security: "Security",
} as const;
