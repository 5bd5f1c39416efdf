import { libraryView } from "~/content/materials";
import { useHydrated } from "~/hooks/use-hydrated";
import type { MaterialsListItem } from "~/lib/materials-list";

/**
 * The materials an investor may open, each once: the specification's links with the library's details
 * beside them (what each is, its size, whether it is new), then the library's other documents.
 */
export function LibraryList({
  items,
  label,
  newTabNote,
}: {
  items: MaterialsListItem[];
  label: string;
  newTabNote: string;
}) {
  // Without the page's script a PDF opens as the file; with it, in the page's viewer.
  const hydrated = useHydrated();
  return (
    <nav aria-label={label} className="library-list">
      <ul className="library-list__items">
        {items.map((item) => (
          <li key={item.key} className="library-list__item">
            <p className="library-list__title">
              {/* Plain anchors: a PDF and a new tab are documents, not app routes. */}
              <a
                href={hydrated && item.viewerHref ? item.viewerHref : item.href}
                {...(item.newTab ? { target: "_blank", rel: "noopener" } : {})}
              >
                {item.label}
                {item.newTab ? <span className="visually-hidden"> {newTabNote}</span> : null}
              </a>
              {item.details?.mark ? (
                <span className={`library-list__mark library-list__mark--${item.details.mark}`}>
                  {libraryView.marks[item.details.mark]}
                </span>
              ) : null}
            </p>
            {item.details?.description ? <p className="library-list__description">{item.details.description}</p> : null}
            {item.details ? (
              <p className="library-list__facts">
                {libraryView.facts(libraryView.kinds[item.details.kind], item.details.size, item.details.updated)}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}
