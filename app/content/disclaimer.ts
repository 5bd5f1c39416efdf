import { firm } from "./firm";
import { sentence } from "./sentence";

/** The static legal text of /disclaimer (docs/requirements.md, "Public pages"). */
export const disclaimerPage = {
  title: "Disclaimer",
  description: `Legal disclaimer of ${firm.name}: ownership, memberships, and the terms of use of this website's content.`,
  heading: "Disclaimer",
  ownership: sentence(`${firm.name} is a wholly owned subsidiary of ${firm.parentCompany}`),
  membership: {
    lead: `${firm.name} is a member of`,
    regulator: firm.regulator,
    investorProtection: firm.investorProtection,
  },
  paragraphs: [
    "The content of this website is provided for informational purposes only. It is not investment, legal, tax or accounting advice, and it is not an offer to sell, or a solicitation of an offer to buy, any security or service.",
    "Unauthorized use of this website or of its content is prohibited.",
    sentence(
      `No part of this website may be reproduced, distributed or transmitted in any form or by any means without the prior written consent of ${firm.name}`,
    ),
  ],
} as const;
