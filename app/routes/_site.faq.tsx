import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { FaqAccordion, faqItemId, faqLinks } from "~/components/faq-accordion";
import { FaqSearchForm } from "~/components/faq-search-form";
import { faqEntries } from "~/content/faq";
import { searchFaq } from "~/lib/faq-search";
import { pageMeta } from "~/lib/meta";

export const links: LinksFunction = () => faqLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  const { query, visible, matchCount, nextShow, firstNew } = searchFaq(faqEntries, new URL(request.url).searchParams);
  return { query, entries: visible, matchCount, nextShow, firstNewId: firstNew ? faqItemId(firstNew) : null };
}

export const meta: MetaFunction = () =>
  pageMeta(
    "Frequently Asked Questions",
    "Answers about the ATS: trading hours, order types, matching, commissions, who may subscribe and instant settlement.",
  );

export default function FaqPage() {
  const { query, entries, matchCount, nextShow, firstNewId } = useLoaderData<typeof loader>();
  const focusAfterLoad = useFocusOnFirstNewQuestion(entries);

  return (
    <section className="section faq-page" aria-labelledby="faq-title">
      <h1 id="faq-title">Frequently Asked Questions</h1>
      <FaqSearchForm query={query} />
      <p className="faq-page__status" role="status">
        {matchCount === 0
          ? `No questions match “${query}”. Try other words, or clear the search to see every question.`
          : `Showing ${entries.length} of ${matchCount} ${matchCount === 1 ? "question" : "questions"}${query ? ` matching “${query}”` : ""}.`}
      </p>
      {entries.length > 0 ? <FaqAccordion entries={entries} /> : null}
      {nextShow !== null ? (
        // The fragment takes a browser without JavaScript to the first question added, not back to the top.
        <Form
          method="get"
          action={`/faq#${firstNewId}`}
          className="faq-page__more"
          replace
          preventScrollReset
          onSubmit={focusAfterLoad}
        >
          {query ? <input type="hidden" name="q" value={query} /> : null}
          <input type="hidden" name="show" value={nextShow} />
          <button type="submit" className="button">
            Load More
          </button>
        </Form>
      ) : null}
    </section>
  );
}

/**
 * Load More removes or keeps its button under the pointer; either way the
 * keyboard user should land on the first question that was added.
 */
function useFocusOnFirstNewQuestion(entries: readonly { id: string }[]) {
  const pendingIndex = useRef<number | null>(null);

  useEffect(() => {
    const index = pendingIndex.current;
    pendingIndex.current = null;
    if (index === null || entries.length <= index) return;
    document.querySelector<HTMLElement>(`#${faqItemId(entries[index])} > summary`)?.focus();
  }, [entries]);

  return () => {
    pendingIndex.current = entries.length;
  };
}
