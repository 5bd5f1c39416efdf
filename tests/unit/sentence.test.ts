import { sentence } from "~/content/sentence";

describe("sentence", () => {
  it("ends with one period, even after a name that has its own", () => {
    expect(sentence("Northbeam Securities LLC is a wholly owned subsidiary of Northbeam Holdings Inc.")).toBe(
      "Northbeam Securities LLC is a wholly owned subsidiary of Northbeam Holdings Inc.",
    );
    expect(sentence("The consent of Acme LLC")).toBe("The consent of Acme LLC.");
  });
});
