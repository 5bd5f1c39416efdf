import type { CSSProperties } from "react";
import { ACCORDION_TRANSITION_MS } from "~/content/constants";
import type { FaqEntry } from "~/content/faq";
import faqStyles from "~/styles/faq.css";

/** The FAQ stylesheet, for the `links` of any route that renders FAQ pieces. */
export const faqLinks = [{ rel: "stylesheet", href: faqStyles }];

/** The id of an entry's disclosure, so a page can move focus to a question. */
export function faqItemId(entry: Pick<FaqEntry, "id">) {
  return `faq-${entry.id}`;
}

/**
 * Questions as native disclosures (<details>/<summary>): they open without
 * JavaScript, several may be open at once, and the browser keeps each one's
 * open state while the list around it grows.
 */
export function FaqAccordion({ entries, label = "Questions" }: { entries: readonly FaqEntry[]; label?: string }) {
  const style = { "--accordion-transition": `${ACCORDION_TRANSITION_MS}ms` } as CSSProperties;
  return (
    <ul className="faq-list" aria-label={label} style={style}>
      {entries.map((entry) => (
        <li key={entry.id} className="faq-list__item">
          <details className="faq-item" id={faqItemId(entry)}>
            <summary className="faq-item__question">{entry.question}</summary>
            <div className="faq-item__answer">
              <p>{entry.answer}</p>
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}
