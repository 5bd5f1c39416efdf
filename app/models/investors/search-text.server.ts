/**
 * The investor search's folding (migrations/search-text.js, which migration 012 shares): every write of
 * a user's full name or e-mail address stores `searchTextFor` of them in `search_text`, and a search
 * looks for the words of its query folded the same way (docs/requirements.md, "The investor table").
 */
import { foldForSearch } from "../../../migrations/search-text.js";

export { foldForSearch, searchTextFor } from "../../../migrations/search-text.js";

/** The words of a search, folded; none for a query of only spaces and punctuation, which matches everyone. */
export function searchWords(query: string): string[] {
  const folded = foldForSearch(query);
  return folded === "" ? [] : folded.split(" ");
}
