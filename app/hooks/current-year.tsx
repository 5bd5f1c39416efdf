import { createContext, useContext } from "react";

declare global {
  interface Window {
    /** The year the server rendered the page in; root.tsx writes it beside the firm's settings. */
    __currentYear?: number;
  }
}

/**
 * The year the page was rendered in (the copyright line shows it). The server gives it for each
 * render (entry.server.tsx); the browser takes the server's, so that a page rendered on New Year's
 * Eve hydrates with the same words.
 */
const CurrentYearContext = createContext(
  typeof document === "undefined" ? new Date().getUTCFullYear() : (window.__currentYear ?? new Date().getUTCFullYear()),
);

export const CurrentYearProvider = CurrentYearContext.Provider;

export function useCurrentYear() {
  return useContext(CurrentYearContext);
}
