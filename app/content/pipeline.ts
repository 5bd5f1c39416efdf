/** The words of the pipeline: the raise's stages, their counts and conversions, week by week. */
export const pipelineContent = {
  link: "Pipeline",
} as const;
