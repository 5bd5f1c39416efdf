import { libraryView } from "~/content/materials";

export type LibraryListItem = {
  id: string;
  title: string;
  description: string;
  kind: "pdf" | "video";
  size: string;
  updated: string;
  mark: "new" | "updated" | null;
  href: string;
};

/** The documents shared with the investor, beneath the materials page's links: what each is, and what is new. */
export function LibraryList({ documents }: { documents: LibraryListItem[] }) {
  return (
    <section className="library-list" aria-labelledby="library-heading">
      <h2 id="library-heading">{libraryView.heading}</h2>
      <p>{documents.length > 0 ? libraryView.intro : libraryView.empty}</p>
      {documents.length > 0 ? (
        <ul className="library-list__items">
          {documents.map((document) => (
            <li key={document.id} className="library-list__item">
              <h3 className="library-list__title">
                {/* A plain anchor: a PDF is a document the browser opens, not an app route. */}
                <a href={document.href}>{document.title}</a>
                {document.mark ? (
                  <span className={`library-list__mark library-list__mark--${document.mark}`}>
                    {libraryView.marks[document.mark]}
                  </span>
                ) : null}
              </h3>
              {document.description ? <p className="library-list__description">{document.description}</p> : null}
              <p className="library-list__facts">
                {libraryView.facts(libraryView.kinds[document.kind], document.size, document.updated)}
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
