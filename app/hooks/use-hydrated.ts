import { useSyncExternalStore } from "react";

const neverChanges = () => () => {};

/**
 * False while the server renders and during hydration, true from then on: a
 * control that needs JavaScript renders its no-JavaScript form until the script runs.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
