/** The raise's stages, in order, for the pages and the models alike. */
export { PIPELINE_STAGES, type PipelineStage } from "~/content/pipeline";
