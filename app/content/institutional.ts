import { firm } from "./firm";

/** The institutional page, /investors (docs/requirements.md, "Public pages"). */
export const institutionalPage = {
  title: "Institutional Investors",
  description: `${firm.atsName}: an Alternative Trading System for U.S. stocks and ETFs with instant settlement, for institutional U.S.-registered broker-dealers.`,
  heading: "Institutional Investors",
  about: [
    `${firm.name} plans to operate ${firm.atsName}, an Alternative Trading System (ATS) for U.S. stocks and ETFs with instant settlement.`,
    "Subscribers to the ATS are institutional, U.S.-registered broker-dealers that are correspondents of a clearing firm. Retail investors cannot trade on the ATS directly; they should ask their broker-dealer.",
    `We expect to begin operating in ${firm.operatingStart}.`,
  ],
  welcomeHeading: "Institutional investors welcome",
  welcome: "Institutional investors are welcome, especially market makers.",
  contactLead: "To learn more or to become a subscriber, write to us at",
  disclosuresHeading: "Regulatory disclosures",
  formAtsN: "Form ATS-N",
  portal: {
    heading: "Investors in the firm",
    text: "Investors in the firm's financing round sign in to the investor portal, where the investor materials open once the non-disclosure agreement is signed.",
    link: { to: "/financing/login", label: "Sign in to the investor portal" },
  },
  mailbox: firm.mailboxes.institutional,
} as const;
