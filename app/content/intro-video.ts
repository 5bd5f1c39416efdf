import { firm } from "./firm";

/** The words every video disclaimer page shares (/introvideo, and later the investor video). */
export const videoAgreement = {
  label: "I have read, understood, and agree to the terms of this disclaimer",
  submit: "View video",
  notAgreed:
    "Please tick the box to confirm that you have read, understood, and agree to the disclaimer. The video is shown only after that.",
} as const;

/** /introvideo: the public introductory video behind its disclaimer. */
export const introVideo = {
  title: "Introductory video",
  description: `Watch ${firm.name}'s introductory video about ${firm.atsName} after reading and agreeing to its disclaimer.`,
  heading: "Introductory video",
  disclaimerHeading: "Disclaimer",
  disclaimer: [
    `This video is provided by ${firm.name} for general information only. It describes ${firm.atsName}, an Alternative Trading System the firm plans to operate, as the firm expects it to work; features, timing and availability may change.`,
    "Nothing in this video is investment, legal, tax or accounting advice, a recommendation, or an offer to sell or a solicitation of an offer to buy any security or service. Any such offer would be made only through the appropriate documents and only where permitted by law.",
    "Statements about future plans or expected results are forward-looking; they involve risks and uncertainties, and actual results may differ materially. The firm undertakes no duty to update them.",
    `The video and its contents belong to ${firm.name} and may not be copied, reproduced or distributed, in whole or in part, without the firm's prior written consent.`,
  ],
  video: { src: "/video/introvideo.mp4", label: `${firm.atsName} introductory video` },
} as const;
