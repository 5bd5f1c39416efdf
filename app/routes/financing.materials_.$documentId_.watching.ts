import { acceptWatchReport, reportRoute } from "~/http/reading-events.server";

/** The watch page reports the parts of a library video played (app/http/reading-events.server.ts). */
const route = reportRoute(acceptWatchReport);
export const action = route.action;
export const loader = route.loader;
