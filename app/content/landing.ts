import { firm } from "./firm";

/** The landing page's words (/ and /home), section by section. */
export const landingMeta = {
  home: {
    title: "Instant settlement for U.S. stocks and ETFs",
    description: `${firm.atsName}: an Alternative Trading System for U.S. stocks and ETFs with instant settlement, for institutional broker-dealers. Expected to begin operating in ${firm.operatingStart}.`,
  },
  homeAlias: {
    title: "Home",
    description: `${firm.name} and ${firm.atsName}: instant settlement on U.S. stocks and ETFs, pricing, answers to common questions, the team, and how to get in touch.`,
  },
} as const;

export const hero = {
  heading: "Instant settlement for U.S. stocks and ETFs",
  text: `${firm.atsName} is an Alternative Trading System where every trade settles the moment it is matched.`,
  cta: { to: "#contact", label: "Get in touch" },
  poster: {
    wide: { src: "/images/hero-poster.webp", width: 1600, height: 900 },
    narrow: { src: "/images/hero-poster-narrow.webp", width: 750, height: 1000 },
  },
  video: { src: "/video/introvideo.mp4" },
  pause: "Pause video",
  play: "Play video",
} as const;

export const intro = {
  heading: "Trading that settles when it trades",
  paragraphs: [
    `${firm.name} plans to operate ${firm.atsName}, an Alternative Trading System (ATS) that offers instant settlement on U.S. stocks and ETFs: when an order is matched, the trade is settled at once, not days later.`,
    `${firm.atsName} is for institutional, U.S.-registered broker-dealers that are correspondents of a clearing firm. We expect to begin operating in ${firm.operatingStart}. Retail investors cannot trade on the ATS directly and should ask their broker-dealer.`,
  ],
  interested: "Interested in trading on the ATS? Please tell us through our contact page.",
  contactLink: { to: "/contact", label: "Contact us" },
} as const;

export const pricing = {
  heading: "Simple, transparent pricing",
  text: "Coming soon",
  link: { to: "/pricing", label: "Pricing details" },
} as const;

export const contactSection = {
  id: "contact",
  heading: "Contact Us Today",
} as const;

export const faqBlock = {
  heading: "Frequently Asked Questions",
  /** How many questions the landing page shows; /faq has them all. */
  count: 4,
  allLink: { to: "/faq", label: "See all FAQs" },
} as const;

export const signedInBar = {
  text: (email: string) => `You are signed in as ${email}.`,
  logOut: "Log Out",
} as const;
