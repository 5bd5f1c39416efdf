import { copyrightLine, copyrightYears } from "~/content/copyright";
import { firm } from "~/content/firm";
import { sentence } from "~/content/sentence";

describe("the copyright line", () => {
  it("runs from the first year to the current one", () => {
    expect(copyrightYears(2024, 2026)).toBe("2024–2026");
    expect(copyrightYears(2024, 2025)).toBe("2024–2025");
  });

  it("shows one year while the current one is the first (or a clock is behind)", () => {
    expect(copyrightYears(2024, 2024)).toBe("2024");
    expect(copyrightYears(2024, 2023)).toBe("2024");
  });

  it("keeps the footer's words, from the specification's year", () => {
    expect(firm.firstCopyrightYear).toBe(2024);
    expect(copyrightLine(2026)).toBe(`© 2024–2026 ${sentence(firm.name)} All rights reserved.`);
    expect(copyrightLine(2024)).toBe(`© 2024 ${sentence(firm.name)} All rights reserved.`);
  });
});
