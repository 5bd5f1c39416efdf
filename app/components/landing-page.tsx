import type { LinkDescriptor } from "@remix-run/node";
import { Link, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { HeroVideo } from "~/components/hero-video";
import { loadOnDemandBlocks, onDemand } from "~/components/on-demand";
import { Reveal } from "~/components/reveal";
import type { FaqEntry } from "~/content/faq";
import { contactSection, faqBlock, hero, intro, pricing } from "~/content/landing";
import type { TeamMember } from "~/content/team";
import contactStyles from "~/styles/contact.css";
import faqStyles from "~/styles/faq.css";
import landingStyles from "~/styles/landing.css";
import teamStyles from "~/styles/team.css";

/**
 * For the `links` of both landing routes (/ and /home). The on-demand blocks'
 * styles are named here, not taken from their modules, so the page does not load their scripts.
 */
export const landingLinks: LinkDescriptor[] = [contactStyles, faqStyles, teamStyles, landingStyles].map((href) => ({
  rel: "stylesheet",
  href,
}));

// Below the hero: their scripts load at the visitor's first scroll, key or pointer press.
const ContactForm = onDemand(() => import("./contact-form").then((module) => module.ContactForm));
const FaqAccordion = onDemand(() => import("./faq-accordion").then((module) => module.FaqAccordion));
const TeamSection = onDemand(() => import("./team-section").then((module) => module.TeamSection));

/**
 * The landing page, shared by / and /home: the hero, then the intro, pricing,
 * contact form, a few FAQs and the team, each animating in once. The contact
 * form posts to the route that renders this page.
 */
export function LandingPage({ faq, team }: { faq: readonly FaqEntry[]; team: readonly TeamMember[] }) {
  const [searchParams] = useSearchParams();
  // A member's dialog opened from the URL must not wait for its block to scroll into view.
  const teamDialogOpen = searchParams.has("member");
  // An open dialog is in front of the page: it must work as a modal at once.
  useEffect(() => {
    if (teamDialogOpen) loadOnDemandBlocks();
  }, [teamDialogOpen]);

  return (
    <div className="landing">
      <HeroVideo
        headingId="hero-heading"
        posters={hero.poster}
        video={hero.video}
        labels={{ pause: hero.pause, play: hero.play }}
      >
        <h1 id="hero-heading" className="hero__heading">
          {hero.heading}
        </h1>
        <p className="hero__text">{hero.text}</p>
        <a className="button hero__cta" href={hero.cta.to}>
          {hero.cta.label}
        </a>
      </HeroVideo>

      <Reveal className="section landing__intro" aria-labelledby="intro-heading">
        <h2 id="intro-heading">{intro.heading}</h2>
        {intro.paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
        <p className="landing__interested">
          {intro.interested}{" "}
          <Link to={intro.contactLink.to} className="landing__link">
            {intro.contactLink.label}
          </Link>
        </p>
      </Reveal>

      <Reveal className="section landing__pricing" aria-labelledby="pricing-heading">
        <h2 id="pricing-heading">{pricing.heading}</h2>
        <p className="landing__coming-soon">{pricing.text}</p>
        <p>
          <Link to={pricing.link.to} className="landing__link">
            {pricing.link.label}
          </Link>
        </p>
      </Reveal>

      <Reveal id={contactSection.id} className="section landing__contact" aria-labelledby="contact-heading">
        <h2 id="contact-heading">{contactSection.heading}</h2>
        <ContactForm headingLevel={3} />
      </Reveal>

      <Reveal className="section landing__faq" aria-labelledby="landing-faq-heading">
        <h2 id="landing-faq-heading">{faqBlock.heading}</h2>
        <FaqAccordion entries={faq} label={faqBlock.heading} />
        <p>
          <Link to={faqBlock.allLink.to} className="landing__link">
            {faqBlock.allLink.label}
          </Link>
        </p>
      </Reveal>

      <Reveal as="div" initiallyVisible={teamDialogOpen}>
        <TeamSection members={team} headingLevel={2} />
      </Reveal>
    </div>
  );
}
