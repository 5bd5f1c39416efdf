/** Where the app serves pdf.js's worker (app/routes/viewer.pdf[.]worker[.]mjs.ts), versioned so it is cached for good. */
export const PDF_WORKER_PATH = "/viewer/pdf.worker.mjs?v=6.5.438";
