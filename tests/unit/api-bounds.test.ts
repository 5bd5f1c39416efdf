import { expect, test } from "vitest";
import { boundedText } from "../support/api-bounds";

test("boundedText takes text within its bounds and throws past them, counting as the server does", () => {
  expect(boundedText("x".repeat(200), 200)).toBe("x".repeat(200));
  expect(() => boundedText("x".repeat(201), 200)).toThrow(
    "201 characters (UTF-16 units), where the document allows 0 to 200.",
  );
  expect(() => boundedText("", 200, 1)).toThrow("0 characters (UTF-16 units), where the document allows 1 to 200.");
  // A character outside the BMP is two UTF-16 units to the server (zod), so 101 of them are refused at 200.
  expect(boundedText("😀".repeat(100), 200)).toHaveLength(200);
  expect(() => boundedText("😀".repeat(101), 200)).toThrow("202 characters (UTF-16 units)");
});
