import { apiDocsPage } from "../../app/content/api-docs";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";

/**
 * /api/docs, the JSON API's reference page: the OpenAPI document read as a page, rendered by the app
 * itself under the site's Content Security Policy, with JavaScript on and off.
 */

test("/api/docs shows every call of the OpenAPI document, with no CSP violation and no axe finding", async ({
  page,
  javaScriptOn,
  request,
}) => {
  // A long page: every call and shape is checked, then axe reads it all.
  test.slow();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });

  const response = await visit(page, "/api/docs", javaScriptOn);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self' 'nonce-");
  await expect(page).toHaveTitle(new RegExp(`^${apiDocsPage.title} \\|`));
  await expect(page.getByRole("heading", { level: 1, name: apiDocsPage.heading })).toBeVisible();

  const openApi = (await (await request.get("/api/openapi.json")).json()) as {
    paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, unknown> };
  };
  for (const [path, methods] of Object.entries(openApi.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const call = page.locator(`#call-${operation.operationId}`);
      await expect(call).toHaveText(`${method.toUpperCase()} ${path}`);
      const answers = page.locator(
        `section:has(> #call-${operation.operationId}) table:has(caption:text-is("Responses")) tbody th`,
      );
      await expect(answers).toHaveText(Object.keys(operation.responses));
    }
  }
  for (const name of Object.keys(openApi.components.schemas)) {
    await expect(page.getByRole("heading", { level: 3, name, exact: true })).toBeVisible();
  }
  // A shape's link leads to its definition on the same page.
  await page.locator("#call-login ~ div table").getByRole("link", { name: "LoginAnswer" }).click();
  await expect(page).toHaveURL(/#schema-LoginAnswer$/);
  await expect(page.getByRole("link", { name: apiDocsPage.documentLink })).toHaveAttribute("href", "/api/openapi.json");

  await expectNoAxeViolations(page, "/api/docs");
  expect(problems).toEqual([]);
});
