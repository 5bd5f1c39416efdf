import { jsonArrayBytes } from "~/server/json-bytes.server";

describe("a JSON array written in pieces", () => {
  const investors = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      id: `id-${i}`,
      fullName: i % 7 ? `Investor ${i}` : `Łukasiewicz ${i}`,
    }));

  it("is the same bytes as one JSON.stringify, whatever the count around a piece's hundred", () => {
    for (const count of [0, 1, 99, 100, 101, 250]) {
      const items = investors(count);
      expect(jsonArrayBytes(items).toString("utf8")).toBe(JSON.stringify(items));
    }
  });

  it("writes what surrounds the array, and names beyond ASCII in UTF-8", () => {
    const bytes = jsonArrayBytes([{ fullName: "Łukasiewicz" }], { before: '{"users":', after: ',"nextCursor":"c"}' });
    expect(bytes.toString("utf8")).toBe('{"users":[{"fullName":"Łukasiewicz"}],"nextCursor":"c"}');
    expect(bytes.includes(Buffer.from("Ł", "utf8"))).toBe(true);
  });
});
