/** Pages that exist but have nothing to show yet (docs/requirements.md, "Public pages"). */
export const comingSoon = "Coming soon";

export const newsPage = {
  title: "News",
  description: "News from the firm and its ATS for U.S. stocks and ETFs: coming soon.",
  heading: "News",
} as const;

export const demoPage = {
  title: "Demo",
  description: "A demonstration of the ATS for U.S. stocks and ETFs with instant settlement: coming soon.",
  heading: "Demo",
} as const;
