/**
 * The investor search's folding (migrations/search-text.js): what a name, an address and a query become
 * before they are compared.
 */
import { foldForSearch, searchTextFor, searchWords } from "~/models/investors/search-text.server";

describe("foldForSearch", () => {
  it("drops accents and case", () => {
    expect(foldForSearch("Miguel Ángel Ortega-Sánchez")).toBe("miguel angel ortega sanchez");
    expect(foldForSearch("ÇAĞRI Öztürk, Zoë Brontë, Dvořák")).toBe("cagri ozturk zoe bronte dvorak");
    expect(foldForSearch("İstanbul")).toBe("istanbul");
  });

  it("spells out the letters that do not decompose", () => {
    expect(foldForSearch("Groß STRASSE ẞ")).toBe("gross strasse ss");
    expect(foldForSearch("Ødegård Æsir Œuvre Łukasz Đorđe Þór Ðan")).toBe("odegard aesir oeuvre lukasz dorde thor dan");
  });

  it("turns every run of punctuation and spaces into one space, none at either end", () => {
    expect(foldForSearch("  O'Brien--Smith,\tJr.  ")).toBe("o brien smith jr");
    expect(foldForSearch("jane.doe+portal@example.com")).toBe("jane doe portal example com");
    expect(foldForSearch("100% Literal_Name")).toBe("100 literal name");
  });

  it("decomposes compatibility forms (ligatures, full-width letters)", () => {
    expect(foldForSearch("ﬁnance ＡＢＣ")).toBe("finance abc");
  });

  it("keeps Greek, Cyrillic and CJK letters, lower case and without accents", () => {
    expect(foldForSearch("ΟΔΥΣΣΕΑΣ Άλφα")).toBe("οδυσσεασ αλφα");
    expect(foldForSearch("Ёлка ПЕТРОВ")).toBe("елка петров");
    expect(foldForSearch("山田 太郎")).toBe("山田 太郎");
  });

  it("makes nothing of nothing, spaces or punctuation alone", () => {
    expect(foldForSearch("")).toBe("");
    expect(foldForSearch("   ")).toBe("");
    expect(foldForSearch("%_-,.\u0301")).toBe("");
  });
});

describe("searchTextFor", () => {
  it("is the name and the address, folded", () => {
    expect(searchTextFor({ fullName: "Miguel Ángel Ortega-Sánchez", email: "m.ortega@example.com" })).toBe(
      "miguel angel ortega sanchez m ortega example com",
    );
  });

  it("is the address alone for a user without a name yet", () => {
    expect(searchTextFor({ fullName: "", email: "new@example.com" })).toBe("new example com");
  });
});

describe("searchWords", () => {
  it("splits the folded query into its words", () => {
    expect(searchWords("SÁNCHEZ, Miguel")).toEqual(["sanchez", "miguel"]);
  });

  it("has no words for a query of only spaces and punctuation", () => {
    expect(searchWords(" %_ ")).toEqual([]);
  });
});
