/** The largest file of each kind an administrator may upload to the materials library (the browser checks them too). */
const MIB = 1024 * 1024;

export const MATERIAL_LIMITS = { pdf: 50 * MIB, video: 1024 * MIB, captions: 2 * MIB } as const;

/**
 * What one stamped copy of a PDF may cost, since every investor's copy is stamped page by page: its pages,
 * the bytes its pages' drawing instructions inflate to (the whole document's, so that many modest streams
 * add up), and the upload check's time to stamp it once.
 */
export const PDF_STAMP_LIMITS = { pages: 1000, inflatedBytes: 32 * MIB, stampMs: 10_000 } as const;
