import { Link } from "@remix-run/react";
import { copyrightLine } from "~/content/copyright";
import { firm } from "~/content/firm";
import { footerLinks } from "~/content/navigation";
import { useCurrentYear } from "~/hooks/current-year";

export function SiteFooter() {
  const year = useCurrentYear();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <nav aria-label="Footer">
          <ul className="site-footer__links">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
            <li>
              <a href="/disclaimer" target="_blank" rel="noopener">
                Disclaimer<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </li>
          </ul>
        </nav>
        <p className="site-footer__membership">
          {firm.name} is a member of{" "}
          <a href={firm.regulator.url} rel="noopener noreferrer external">
            {firm.regulator.name}
          </a>{" "}
          and{" "}
          <a href={firm.investorProtection.url} rel="noopener noreferrer external">
            {firm.investorProtection.name}
          </a>
          .
        </p>
        <ul className="site-footer__disclosures">
          <li>
            <a href={firm.businessContinuityPdf}>Business Continuity Plan Disclosure (PDF)</a>
          </li>
          <li>
            <span className="site-footer__label">Form ATS-N</span>
          </li>
          <li>
            <a href={firm.brokerCheck.url} rel="noopener noreferrer external">
              Check the background of this firm on {firm.brokerCheck.label}
            </a>
          </li>
          <li>
            <a href={firm.social.url} rel="noopener noreferrer external">
              {firm.social.label}
            </a>
          </li>
        </ul>
        <p className="site-footer__copyright">{copyrightLine(year)}</p>
      </div>
    </footer>
  );
}
