import { acceptReadingBatch, reportRoute } from "~/http/reading-events.server";

/** The page's viewer reports the time each page of a stamped copy was read (app/http/reading-events.server.ts). */
const route = reportRoute(acceptReadingBatch);
export const action = route.action;
export const loader = route.loader;
