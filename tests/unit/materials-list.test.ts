import { materialsList } from "~/lib/materials-list";

const links = [
  {
    label: "Introductory video",
    href: "/financing/introductoryvideo",
    newTab: true,
    libraryTitle: "Introductory video",
  },
  { label: "Slide deck", href: "/pdfs/download.pdf", newTab: false, libraryTitle: "Slide deck" },
];
const shipped = { pdf: "pdf-digest", video: "video-digest" };

const documentOf = (id: string, title: string, kind: "pdf" | "video", sha256: string) => ({
  id,
  title,
  description: `About ${title}`,
  kind,
  size: "1.4 KB",
  updated: "November 27, 2026",
  mark: "new" as const,
  href: `/financing/materials/${id}`,
  sha256,
});

describe("the materials page's list", () => {
  it("lists each material once: the specification's link with the library's details, then the others", () => {
    const items = materialsList(
      links,
      [
        documentOf("v", "Introductory video", "video", "video-digest"),
        documentOf("s", "Slide deck", "pdf", "pdf-digest"),
        documentOf("r", "Annual report", "pdf", "another"),
      ],
      shipped,
    );
    expect(items.map(({ label, href }) => [label, href])).toEqual([
      ["Introductory video", "/financing/introductoryvideo"],
      ["Slide deck", "/pdfs/download.pdf"],
      ["Annual report", "/financing/materials/r"],
    ]);
    expect(items[1].details).toMatchObject({ description: "About Slide deck", kind: "pdf", mark: "new" });
  });

  it("lists a new version of a first document as a material of its own: it is no longer the link's file", () => {
    const items = materialsList(links, [documentOf("s", "Slide deck", "pdf", "a new deck")], shipped);
    expect(items.map(({ label, href, details }) => [label, href, details !== null])).toEqual([
      ["Introductory video", "/financing/introductoryvideo", false],
      ["Slide deck", "/pdfs/download.pdf", false],
      ["Slide deck", "/financing/materials/s", true],
    ]);
  });

  it("pairs a link with one document only, and none when the shipped file cannot be read", () => {
    const twins = [
      documentOf("a", "Slide deck", "pdf", "pdf-digest"),
      documentOf("b", "Slide deck", "pdf", "pdf-digest"),
    ];
    expect(materialsList(links, twins, shipped).map((item) => item.key)).toEqual([
      "Introductory video",
      "Slide deck",
      "b",
    ]);
    expect(materialsList(links, twins, { pdf: null, video: null }).map((item) => item.key)).toEqual([
      "Introductory video",
      "Slide deck",
      "a",
      "b",
    ]);
  });
});
