/** The pages of the investor materials, open to signed-NDA investors and administrators only. */
export const MATERIALS_PAGES = [
  "/financing/materials",
  "/financing/introductoryvideo",
  "/financing/termsandconditions",
  "/financing/slidedeck",
  "/financing/descriptionofsecurities",
];
