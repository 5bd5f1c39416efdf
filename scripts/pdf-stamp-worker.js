// @ts-check
// A thread of the stamping pool (app/server/stamp-pool.server.ts): stamps one PDF at a time, off the
// server's event loop. Like scripts/pdf-stampable.js, it imports the app's stamping module from its source
// (Node 24 strips its types), so that module must keep to plain imports.
import { move } from "piscina";

const source = new URL("../app/server/pdf-stamp.server.ts", import.meta.url).href;
const { stampPdf } = /** @type {typeof import("../app/server/pdf-stamp.server")} */ (await import(source));

/**
 * @param {{ pdf: Uint8Array, stamp: import("../app/server/pdf-stamp.server").Stamp }} task
 * @returns the stamped copy (a Uint8Array), its memory handed to the server rather than copied
 */
export default async function stamp({ pdf, stamp }) {
  return move(await stampPdf(pdf, stamp));
}
