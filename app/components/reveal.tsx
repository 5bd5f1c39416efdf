import { useEffect, useRef, useState, type ComponentPropsWithoutRef } from "react";
import { SCROLL_ANIMATION_OFFSET_PX, SCROLL_THROTTLE_MS } from "~/content/constants";

type RevealProps = ComponentPropsWithoutRef<"section"> & {
  as?: "section" | "div";
  /** Render already revealed, e.g. when the block holds a dialog the URL opened. */
  initiallyVisible?: boolean;
};

/**
 * A block that animates in once, the first time its top comes within
 * SCROLL_ANIMATION_OFFSET_PX of the viewport's bottom. It is rendered visible,
 * and only this component's own effect, once it runs, hides ("arms") a block
 * that is still below the fold: so without JavaScript, with a script that
 * failed to load, or before it runs, nothing is ever hidden. The hiding itself
 * is in app.css, on screens only and when motion is welcome.
 */
export function Reveal({ as: Tag = "section", initiallyVisible = false, className, ...props }: RevealProps) {
  // HTMLDivElement is an HTMLElement, so one ref type fits both tags.
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(initiallyVisible);
  const [armed, setArmed] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (visible || !element) return;
    if (isScrolledIntoView(element)) {
      setVisible(true);
      return;
    }
    setArmed(true);
    const check = throttle(() => {
      if (isScrolledIntoView(element)) setVisible(true);
    }, SCROLL_THROTTLE_MS);
    check();
    window.addEventListener("scroll", check, { passive: true });
    window.addEventListener("resize", check, { passive: true });
    return () => {
      check.cancel();
      window.removeEventListener("scroll", check);
      window.removeEventListener("resize", check);
    };
  }, [visible]);

  const classes = ["reveal", armed ? "reveal--armed" : "", visible ? "reveal--visible" : "", className ?? ""]
    .filter(Boolean)
    .join(" ");
  return <Tag ref={ref} className={classes} {...props} />;
}

function isScrolledIntoView(element: HTMLElement) {
  const { top, bottom } = element.getBoundingClientRect();
  const viewportHeight = window.innerHeight;
  // A block too short, or too close to the page's end, to ever pass the offset counts once it is fully in view.
  return top <= viewportHeight - SCROLL_ANIMATION_OFFSET_PX || bottom <= viewportHeight;
}

/** Runs `fn` at most once per `ms`, and once more at the end of a burst. */
function throttle(fn: () => void, ms: number) {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const throttled = () => {
    const wait = ms - (Date.now() - last);
    if (wait <= 0) {
      last = Date.now();
      fn();
    } else if (timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        last = Date.now();
        fn();
      }, wait);
    }
  };
  throttled.cancel = () => clearTimeout(timer);
  return throttled;
}
