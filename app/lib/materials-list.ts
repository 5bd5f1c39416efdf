/**
 * The materials page's one list: the specification's four links first, each with the details of the
 * library document that holds the same file, then the library's other documents. A document is the
 * same material as a link while its title is the link's and its latest version is the shipped file the
 * link opens; once the firm uploads a new version it is a material of its own, listed after the links.
 */
export type MaterialsListItem = {
  key: string;
  label: string;
  href: string;
  /** Where the page's viewer shows it, once the page's script runs (a library PDF); the plain href opens the file. */
  viewerHref?: string;
  newTab: boolean;
  /** The library's details, where a document holds this material. */
  details: {
    description: string;
    kind: "pdf" | "video";
    size: string;
    updated: string;
    mark: "new" | "updated" | null;
  } | null;
};

type SpecificationLink = { label: string; href: string; newTab: boolean; libraryTitle: string };

type ListedDocument = {
  id: string;
  title: string;
  description: string;
  kind: "pdf" | "video";
  size: string;
  updated: string;
  mark: "new" | "updated" | null;
  href: string;
  viewerHref?: string;
  sha256: string;
};

/** The SHA-256 of the files the specification's links open, by kind; null where a file cannot be read. */
export type ShippedDigests = { pdf: string | null; video: string | null };

export function materialsList(
  links: readonly SpecificationLink[],
  documents: readonly ListedDocument[],
  shipped: ShippedDigests,
): MaterialsListItem[] {
  const paired = new Set<string>();
  const detailsOf = ({ description, kind, size, updated, mark }: ListedDocument) => ({
    description,
    kind,
    size,
    updated,
    mark,
  });
  const specification = links.map((link) => {
    const document = documents.find(
      (candidate) =>
        !paired.has(candidate.id) &&
        candidate.title === link.libraryTitle &&
        shipped[candidate.kind] !== null &&
        candidate.sha256 === shipped[candidate.kind],
    );
    if (document) paired.add(document.id);
    return {
      key: link.label,
      label: link.label,
      href: link.href,
      newTab: link.newTab,
      details: document ? detailsOf(document) : null,
    };
  });
  const others = documents
    .filter((document) => !paired.has(document.id))
    .map((document) => ({
      key: document.id,
      label: document.title,
      href: document.href,
      viewerHref: document.viewerHref,
      newTab: false,
      details: detailsOf(document),
    }));
  return [...specification, ...others];
}
