import { createElement, lazy, Suspense, type ComponentType } from "react";

type Load<P> = () => Promise<ComponentType<P>>;

/**
 * A block further down a page whose script loads only once the visitor does
 * something: the first scroll, key press, pointer press or touch, or a call to
 * loadOnDemandBlocks (a dialog the URL opens). The server renders it whole inside
 * a Suspense boundary; in the browser React leaves that markup as it is, working
 * as it does without JavaScript (links, forms that post, <details>), until the
 * script has come, then hydrates it. The router's updates are transitions, which
 * wait for such a block instead of replacing its markup: a click that navigates
 * is itself a first interaction, so the wait is one small script.
 */
export function onDemand<P extends object>(load: Load<P>): ComponentType<P> {
  if (typeof document === "undefined") return renderedAtOnce(load);
  // (lazy's typing loses generic props; it renders the loaded component with them all.)
  const Lazy = lazy(() =>
    interaction!
      .then(load)
      .then((component) => ({ default: component }))
      // If the script cannot come, the server's markup stays and keeps working without it.
      .catch(() => new Promise<never>(() => {})),
  ) as unknown as ComponentType<P>;
  return function OnDemand(props: P) {
    return <Suspense fallback={null}>{createElement(Lazy, props)}</Suspense>;
  };
}

/** Loads every on-demand block of the page now. */
export function loadOnDemandBlocks() {
  startLoading();
}

let startLoading = () => {};
const interaction = typeof document === "undefined" ? null : firstInteraction();

function firstInteraction() {
  const types = ["scroll", "wheel", "keydown", "pointerdown", "touchstart"] as const;
  return new Promise<void>((resolve) => {
    startLoading = () => {
      for (const type of types) window.removeEventListener(type, startLoading, true);
      resolve();
    };
    for (const type of types) window.addEventListener(type, startLoading, { capture: true, passive: true });
    // A page opened already scrolled (a #fragment, a restored position) has been moved.
    if (window.scrollY > 0) startLoading();
  });
}

const serverLoads: Promise<unknown>[] = [];

/** Settles once the server has the code of every on-demand block (entry.server.tsx waits for it before rendering). */
export function onDemandBlocksLoaded() {
  return Promise.all(serverLoads);
}

/** On the server the block is rendered at once, in the same Suspense boundary the browser hydrates. */
function renderedAtOnce<P extends object>(load: Load<P>): ComponentType<P> {
  let Component: ComponentType<P> | undefined;
  serverLoads.push(load().then((loaded) => (Component = loaded)));
  return function OnDemand(props: P) {
    if (!Component) throw new Error("An on-demand block was rendered before its code was loaded.");
    return <Suspense fallback={null}>{createElement(Component, props)}</Suspense>;
  };
}
