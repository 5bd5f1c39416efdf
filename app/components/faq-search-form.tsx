import { Form, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { FAQ_QUERY_MAX_LENGTH, FAQ_SEARCH_DEBOUNCE_MS, faqSearchParams } from "~/lib/faq-search";

const CLEAR_FORM_ID = "faq-clear-form";

/**
 * A GET form (?q=) that works without JavaScript. With JavaScript the list
 * follows the box as you type: the URL is replaced, never pushed, and the
 * page does not scroll. The clear button submits an empty sibling form, so it
 * also clears without JavaScript.
 */
export function FaqSearchForm({ query }: { query: string }) {
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  // Follow the URL (clear, back and forward), but never overwrite what is being typed.
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = query;
  }, [query]);

  useEffect(() => () => clearTimeout(timer.current), []);

  function searchAsYouType(value: string) {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      navigate(`${pathname}${faqSearchParams({ query: value.trim() })}`, {
        replace: true,
        preventScrollReset: true,
      });
    }, FAQ_SEARCH_DEBOUNCE_MS);
  }

  function clear() {
    clearTimeout(timer.current);
    if (input.current) {
      input.current.value = "";
      input.current.focus();
    }
  }

  return (
    <div className="faq-search">
      <Form method="get" role="search" aria-label="FAQ" className="faq-search__form" replace preventScrollReset>
        <label htmlFor="faq-search-input" className="faq-search__label">
          Search the questions
        </label>
        <div className="faq-search__row">
          <input
            ref={input}
            id="faq-search-input"
            className="faq-search__input"
            type="search"
            name="q"
            defaultValue={query}
            placeholder="What are you looking for?"
            maxLength={FAQ_QUERY_MAX_LENGTH}
            autoComplete="off"
            onChange={(event) => searchAsYouType(event.currentTarget.value)}
          />
          <button type="submit" className="button faq-search__submit" onClick={() => clearTimeout(timer.current)}>
            Search
          </button>
          <button
            type="submit"
            form={CLEAR_FORM_ID}
            className="button button--secondary faq-search__clear"
            onClick={clear}
          >
            Clear<span className="visually-hidden"> search</span>
          </button>
        </div>
      </Form>
      <Form method="get" id={CLEAR_FORM_ID} replace preventScrollReset hidden />
    </div>
  );
}
