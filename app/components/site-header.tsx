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

function CompanyMenu() {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setOpen(false), [location.pathname]);
  return (
    <li
      className={`company-menu${open ? " company-menu--open" : ""}`}
      onMouseLeave={() => setOpen(false)}
      onKeyDown={(event) => {
        if (event.key === "Escape") setOpen(false);
      }}
    >
      <button
        type="button"
        className="main-nav__link company-menu__button"
        aria-expanded={open}
        aria-controls="company-menu-list"
        onClick={() => setOpen((value) => !value)}
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

function MobileMenu() {
  const details = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  useEffect(() => {
    if (details.current) details.current.open = false;
  }, [location.pathname]);

  useEffect(() => {
    const element = details.current;
    if (!element) return;
    const lockScroll = () => document.body.classList.toggle("scroll-locked", element.open);
    element.addEventListener("toggle", lockScroll);
    return () => {
      element.removeEventListener("toggle", lockScroll);
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
              <Link to={link.to}>{link.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}
