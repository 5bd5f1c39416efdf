/** The words of the firm's switches for what follows the materials (the administrators' settings page). */
export const portalFeaturesContent = {
  title: "Settings",
  description: "Turn questions and answers, qualification and indications of interest on or off.",
  heading: "What investors see after the materials",
  link: "Settings",
  back: "Back to the investors",
  intro:
    "Which of these steps suits an offering is your counsel's decision. Turned off, investors see nothing of it and the API answers 404; what was recorded is kept.",
  notice: "Changing these settings asks you to confirm it's you first.",
  fields: {
    questions: "Questions and answers: investors ask, you answer privately or publish the answer beside the materials",
    qualification: "Qualification: investors say how they are accredited investors, and you record verifications",
    interest: "Indications of interest: investors state a non-binding amount",
    interestNotice: "The words beside an indication of interest (that it is not an offer or a commitment)",
    verificationDays: "Days a verification stands before it expires",
  },
  submit: "Save the settings",
  saved: "The settings are saved.",
  errors: {
    noticeTooLong: "The words beside an indication can be at most 2,000 characters.",
    daysInvalid: "Give the days a verification stands as a whole number from 1 to 3,650.",
  },
  /** What an indication's page says when the firm has given no words of its own. */
  defaultInterestNotice:
    "An indication of interest is not an offer to sell or a solicitation of an offer to buy, and it is not a commitment: you may change or withdraw it at any time, and the firm may accept or decline any subscription.",
} as const;
