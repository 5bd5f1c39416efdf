/** The largest file of each kind an administrator may upload to the materials library (the browser checks them too). */
const MIB = 1024 * 1024;

export const MATERIAL_LIMITS = { pdf: 50 * MIB, video: 1024 * MIB, captions: 2 * MIB } as const;
