import { Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { companyLinks, headerLinks } from "~/content/navigation";
import { Logo } from "./logo";

/**
 * Desktop: Pricing, FAQ and a Company menu that opens on hover and keyboard
 * focus (CSS :hover and :focus-within, so it needs no JavaScript). Under 700px
 * a hamburger opens a full-height side menu; it is a <details> element, so it
 * works without JavaScript, and with JavaScript page scrolling is locked.
 */
export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Logo />
        <nav aria-label="Main" className="main-nav">
          <ul className="main-nav__list">
            {headerLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className="main-nav__link">
                  {link.label}
                </NavLink>
              </li>
            ))}
            <CompanyMenu />
          </ul>
        </nav>
        <MobileMenu />
      </div>
    </header>
  );
}

/**
 * The disclosure pattern of the WAI-ARIA Authoring Practices: the button toggles the list; Escape
 * closes it and returns focus to the button, and it stays closed under the pointer or focus
 * (which open it through CSS) until the button is pressed again or both have left.
 */
function CompanyMenu() {
  const [open, setOpen] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const [openedOn, setOpenedOn] = useState(pathname);
  if (openedOn !== pathname) {
    // A navigation closes the menu: adjusted while rendering, so no second render after an effect.
    setOpenedOn(pathname);
    setOpen(false);
  }
  const classes = ["company-menu", open ? "company-menu--open" : "", dismissed ? "company-menu--dismissed" : ""];
  return (
    // The list item only hears Escape and the pointer leaving from the button and links inside it.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <li
      className={classes.filter(Boolean).join(" ")}
      onMouseLeave={() => {
        setOpen(false);
        setDismissed(false);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) {
          setOpen(false);
          setDismissed(false);
        }
      }}
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        setOpen(false);
        setDismissed(true);
        button.current?.focus();
      }}
    >
      <button
        ref={button}
        type="button"
        className="main-nav__link company-menu__button"
        aria-expanded={open}
        aria-controls="company-menu-list"
        onClick={() => {
          setOpen((value) => !value);
          setDismissed(false);
        }}
      >
        Company
      </button>
      <ul id="company-menu-list" className="company-menu__list">
        {companyLinks.map((link) => (
          <li key={link.to}>
            <Link to={link.to}>{link.label}</Link>
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * Under 700px: a <details> disclosure, which opens and closes without JavaScript. With it, the
 * page behind does not scroll while the panel is open, focus stays inside the panel, and Escape, a
 * tap outside or a link to the page already shown close it (Escape returns focus to the button).
 */
function MobileMenu() {
  const details = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  useEffect(() => {
    if (details.current) details.current.open = false;
  }, [location.pathname]);

  useEffect(() => {
    const element = details.current;
    if (!element) return;
    const summary = element.querySelector("summary")!;
    const close = (returnFocus: boolean) => {
      element.open = false;
      if (returnFocus) summary.focus();
    };
    const onToggle = () => document.body.classList.toggle("scroll-locked", element.open);
    const onKeyDown = (event: KeyboardEvent) => {
      if (!element.open) return;
      if (event.key === "Escape") {
        event.preventDefault();
        close(true);
      } else if (event.key === "Tab") {
        keepFocusInside(element, event);
      }
    };
    const onPointerDown = (event: PointerEvent) => {
      if (element.open && !element.contains(event.target as Node)) close(false);
    };
    element.addEventListener("toggle", onToggle);
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      element.removeEventListener("toggle", onToggle);
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
      document.body.classList.remove("scroll-locked");
    };
  }, []);

  return (
    <details className="mobile-menu" ref={details}>
      <summary className="mobile-menu__toggle" aria-label="Menu">
        <span className="mobile-menu__bars" aria-hidden="true" />
      </summary>
      <nav aria-label="Mobile" className="mobile-menu__panel">
        <ul>
          {[...headerLinks, ...companyLinks].map((link) => (
            <li key={link.to}>
              <Link
                to={link.to}
                onClick={() => {
                  // A link to the page already shown changes no location, so the effect above would not close it.
                  if (details.current) details.current.open = false;
                }}
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}

/** Tab and Shift+Tab cycle through the open menu's button and links instead of leaving it. */
function keepFocusInside(container: HTMLElement, event: KeyboardEvent) {
  const stops = [...container.querySelectorAll<HTMLElement>("summary, a[href]")];
  const first = stops[0];
  const last = stops[stops.length - 1];
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !container.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !container.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}
