/** The words of the pipeline: the raise's stages, their counts and conversions, the interest, the weeks. */
/** The raise's stages, in order (app/models/pipeline/pipeline-stages.server.ts says what each counts). */
export const PIPELINE_STAGES = [
  "signed_up",
  "verified",
  "details",
  "nda_offered",
  "nda_signed",
  "read",
  "qualified",
  "indicated",
] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

export const pipelineContent = {
  link: "Pipeline",
  title: "Pipeline",
  description: "The raise as a pipeline: each stage's investors, the conversions, the indicated interest.",
  heading: "The raise as a pipeline",
  back: "Back to the investors",
  stageFilter: "Stage",
  allStages: "Any stage",
  stages: {
    signed_up: "Signed up",
    verified: "E-mail verified",
    details: "Details given",
    nda_offered: "NDA offered",
    nda_signed: "NDA signed",
    read: "Read the materials",
    qualified: "Qualified (verification standing)",
    indicated: "Indicated interest",
  } satisfies Record<PipelineStage, string>,
  funnelTitle: "The pipeline as a funnel",
  funnelDescription: (counts: string) => `Investors at each stage: ${counts}.`,
  columns: { stage: "Stage", count: "Investors", conversion: "From the stage before" },
  conversion: (share: number | null) => (share === null ? "—" : `${(share * 100).toFixed(1)}%`),
  showTable: (stage: string) => `Show the investors: ${stage}`,
  interest: {
    heading: "Indicated interest",
    note: "Non-binding indications, as investors stated them: not subscriptions or commitments.",
    columns: { verification: "Qualification", count: "Indications", sum: "Total" },
    total: "All",
    standings: { verified: "Verification standing", expired: "Verification expired", unverified: "Not verified" },
    csv: "Download the indications (CSV)",
  },
  weeks: {
    heading: "Week by week",
    columns: {
      week: "Week of",
      signedUp: "Signed up",
      verified: "E-mail verified",
      indicated: "First indicated interest",
    },
    empty: "No investors yet.",
  },
  csvFileName: "indications-of-interest.csv",
  csvHeader: [
    "Full name",
    "E-mail",
    "Amount (USD)",
    "Low (USD)",
    "High (USD)",
    "Note",
    "Qualification",
    "Indicated at",
  ],
} as const;
