import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";

test("the pricing page renders with header and footer", async ({ page, javaScriptOn }) => {
  await visit(page, "/pricing", javaScriptOn);
  await expect(page.getByRole("heading", { level: 1, name: "Simple, transparent pricing" })).toBeVisible();
  await expect(page.getByText("Coming soon")).toBeVisible();
  await expectNoAxeViolations(page, "/pricing");
});
