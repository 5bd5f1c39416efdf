/**
 * The words of how an investor qualifies and of an indication of interest. The categories are those of an
 * accredited investor under Rule 501(a) of Regulation D, in plain words; the portal records what the investor
 * says and what the firm verified, and is neither a verification service nor a subscription.
 */
export const ACCREDITATION_CATEGORIES = {
  income:
    "My income was over $200,000 (or over $300,000 together with my spouse or partner) in each of the last two years, and I expect the same this year",
  net_worth: "My net worth, alone or together with my spouse or partner, is over $1 million, not counting my main home",
  professional: "I hold a Series 7, Series 65 or Series 82 license in good standing",
  knowledgeable_employee: "I am a knowledgeable employee of the private fund that offers the securities",
  insider: "I am a director, executive officer or general partner of the company that offers the securities",
  entity_assets:
    "I invest for an entity (a corporation, partnership, LLC, trust or charity) with assets over $5 million that was not formed to buy these securities",
  entity_investments:
    "I invest for an entity with investments over $5 million that was not formed to buy these securities",
  entity_owners: "I invest for an entity whose owners are all accredited investors",
  institution:
    "I invest for a bank, broker-dealer, investment adviser, insurance company, investment company or business development company",
  family_office: "I invest for a family office with assets over $5 million, or for one of its family clients",
  not_accredited: "I am not an accredited investor",
} as const;

export type AccreditationCategory = keyof typeof ACCREDITATION_CATEGORIES;

export const investorStepsContent = {
  navLabel: "After the materials",
  back: "Back to the materials",
  qualification: {
    link: "How you qualify",
    title: "How you qualify",
    description: "Say whether and how you are an accredited investor.",
    heading: "How you qualify as an investor",
    intro:
      "Say whether and how you are an accredited investor. The firm may ask for proof and record its verification here; the portal itself verifies nothing.",
    category: "Which describes you",
    statedOn: "As of (date)",
    submit: "Save my statement",
    saved: "Your statement is saved.",
    current: "Your statement",
    none: "You have not said how you qualify yet.",
    history: "Your earlier statements",
    verification: "The firm's verification",
    noVerification: "The firm has not recorded a verification.",
    verifiedOn: (date: string, method: string) => `Verified on ${date} by ${method}`,
    expires: (date: string) => `It stands until ${date}.`,
    expired: (date: string) => `It expired on ${date}.`,
  },
  interest: {
    link: "Indicate interest",
    title: "Indication of interest",
    description: "State a non-binding amount you might invest.",
    heading: "Indication of interest",
    amount: "Amount in U.S. dollars",
    low: "From (optional, U.S. dollars)",
    high: "To (optional, U.S. dollars)",
    note: "Note (optional)",
    submit: "Save my indication",
    withdraw: "Withdraw my indication",
    saved: "Your indication is saved.",
    withdrawn: "Your indication is withdrawn.",
    current: "Your indication",
    none: "You have not indicated an amount.",
    isWithdrawn: "You withdrew your indication.",
    history: "Earlier indications",
    range: (low: string, high: string) => `between ${low} and ${high}`,
  },
  verify: {
    link: "Qualification, verification and indicated interest",
    heading: "Qualification",
    statement: "The investor's statement",
    none: "No statement.",
    record: "Record a verification",
    method: "Method",
    verifiedOn: "Date of the verification",
    note: "Note",
    file: "The letter or statement (PDF, optional)",
    submit: "Record the verification",
    recorded: "The verification is recorded.",
    /** The investor table's column: the latest verification's expiry, or nothing before one is recorded. */
    tableColumn: "Accreditation",
    tableUntil: (date: string) => `Verified until ${date}`,
    tableExpired: (date: string) => `Verification expired ${date}`,
  },
  methods: {
    cpa_letter: "a letter from a CPA",
    attorney_letter: "a letter from an attorney",
    broker_dealer_letter: "a letter from a broker-dealer or investment adviser",
    statement_review: "a review of statements (income or assets)",
    other: "another method",
  } as Record<string, string>,
  errors: {
    categoryUnknown: "Choose one of the categories.",
    dateInvalid: "Give the date as YYYY-MM-DD, not in the future.",
    amountInvalid: "Give the amount as a whole number of U.S. dollars, more than 0.",
    amountTooLarge: "The amount can be at most $10,000,000,000.",
    rangeReversed: "The low end of the range cannot be above its high end.",
    rangeHalf: "Give both ends of the range, or neither.",
    noteTooLong: "The note can be at most 1,000 characters.",
    methodUnknown: "Choose a method.",
    fileNotPdf: "The verification file must be a PDF.",
    fileTooLarge: "The verification file can be at most 10 MB.",
    notInvestor: "Only an investor can say how they qualify or indicate interest.",
    notFound: "No investor has this id.",
  },
} as const;
