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
