import type { Page } from "@playwright/test";
import { apiDocsPage } from "../../app/content/api-docs";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";

/**
 * /api/docs, the JSON API's reference page: the OpenAPI document read as a page, rendered by the app
 * itself under the site's Content Security Policy, with JavaScript on and off. Every call is listed in
 * its table of contents and shown with an example request and answer and its types in words, with each
 * field's rules (lengths, range, pattern) and example; at a
 * phone's width (320 and 375 px) nothing scrolls the page sideways, only an example's own box.
 */

type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters?: { in: string }[];
        requestBody?: { content: Record<string, unknown> };
        responses: Record<string, unknown>;
      }
    >
  >;
  components: { schemas: Record<string, unknown> };
};

type Call = {
  id: string;
  method: string;
  path: string;
  hasQuery: boolean;
  /** The request body's media type: JSON, or `multipart/form-data` for an upload. */
  bodyType: string | undefined;
  statuses: string[];
};

async function callsOf(page: Page): Promise<{ calls: Call[]; shapes: string[] }> {
  const openApi = (await (await page.request.get("/api/openapi.json")).json()) as OpenApi;
  const calls = Object.entries(openApi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      id: operation.operationId,
      method: method.toUpperCase(),
      path,
      hasQuery: (operation.parameters ?? []).some((parameter) => parameter.in === "query"),
      bodyType: Object.keys(operation.requestBody?.content ?? {})[0],
      statuses: Object.keys(operation.responses),
    })),
  );
  return { calls, shapes: Object.keys(openApi.components.schemas) };
}

/** Fails on any console error or CSP violation the page reports from now on. */
function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return page
    .addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) =>
        console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`),
      );
    })
    .then(() => problems);
}

/** A link of the table of contents lands on its heading, whole and below the sticky header. */
async function expectLandsOn(page: Page, anchor: string) {
  await expect(page).toHaveURL(new RegExp(`#${anchor}$`));
  const heading = page.locator(`#${anchor}`);
  await expect(heading).toBeInViewport({ ratio: 1 });
  const headerBottom = (await page.getByRole("banner").boundingBox())!;
  const headingBox = (await heading.boundingBox())!;
  expect(headingBox.y, `#${anchor} under the header`).toBeGreaterThanOrEqual(headerBottom.y + headerBottom.height);
}

test("/api/docs shows every call of the OpenAPI document, with no CSP violation and no axe finding", async ({
  page,
  javaScriptOn,
}) => {
  // A long page: every call and shape is checked, then axe reads it all.
  test.slow();
  const problems = await watchProblems(page);

  const response = await visit(page, "/api/docs", javaScriptOn);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self' 'nonce-");
  await expect(page).toHaveTitle(new RegExp(`^${apiDocsPage.title} \\|`));
  await expect(page.getByRole("heading", { level: 1, name: apiDocsPage.heading })).toBeVisible();

  const { calls, shapes } = await callsOf(page);
  for (const call of calls) {
    await expect(page.locator(`#call-${call.id}`)).toHaveText(`${call.method} ${call.path}`);
    const section = page.locator(`section:has(> #call-${call.id})`);
    await expect(section.locator(`table:has(caption:text-is("${apiDocsPage.responses}")) tbody th`)).toHaveText(
      call.statuses,
    );

    // An example request, with its query or body where the call takes one, and the first success's answer.
    const request = page.getByRole("region", {
      name: `${apiDocsPage.exampleRequest} ${call.method} ${call.path}`,
      // get_investor's name is the start of get_investors'.
      exact: true,
    });
    await expect(request).toContainText(new RegExp(`^${call.method} ${call.path.replace(/\{[^}]+\}/g, "[^/?\\s]+")}`));
    if (call.hasQuery) await expect(request).toContainText(/\?\w+=/);
    if (call.bodyType === "application/json")
      await expect(request).toContainText(/Content-Type: application\/json\s+\{/);
    if (call.bodyType === "multipart/form-data")
      await expect(request).toContainText(/Content-Type: multipart\/form-data; boundary=\S+\s+--/);
    const success = call.statuses.find((status) => status.startsWith("2"))!;
    const answer = page.getByRole("region", {
      name: `${apiDocsPage.exampleAnswer} ${call.method} ${call.path}`,
      exact: true,
    });
    await expect(answer).toContainText(new RegExp(`^${success} `));
    const answerText = (await answer.textContent())!;
    // A JSON answer's example parses; a file's (the signed NDA's PDF) stands for its bytes.
    if (answerText.includes("Content-Type: application/json"))
      expect(() => JSON.parse(answerText.slice(answerText.indexOf("\n\n"))), call.id).not.toThrow();
    else expect(answerText, call.id).toMatch(/Content-Type: application\/pdf/);
  }
  for (const name of shapes) {
    await expect(page.getByRole("heading", { level: 3, name, exact: true })).toBeVisible();
  }

  // Types in words, not JSON Schema.
  const field = (shape: string, name: string) =>
    page.locator(`section:has(> #schema-${shape}) .api-fields__entry:has(dt code:text-is("${name}"))`);
  await expect(field("RegisterRequest", "email")).toContainText("string, e-mail, at most 254 characters");
  await expect(field("RegisterRequest", "password")).toContainText("string, 8 to 128 characters");
  await expect(field("InvestorList", "users")).toContainText("list of PublicUser");
  await expect(field("PublicUser", "role.name")).toContainText("one of: investor, administrator");
  await expect(field("SecondFactorRequired", "mfaRequired")).toContainText("always true");
  await expect(page.locator("section:has(> #schema-LoginRefusal)")).toContainText(
    "one of: SecondFactorRequired, Error",
  );

  // The server's rules, as the document carries them, and each plain field's and parameter's example.
  await expect(field("NameAddressRequest", "full_name")).toContainText(
    /string, 1 to 200 characters matching \^\(\?=\\s\*\\S\)\[\^\\u0000-\\u001f/,
  );
  await expect(field("NameAddressRequest", "full_name")).toContainText(`${apiDocsPage.example}: "Ada Lovelace"`);
  await expect(field("NameAddressRequest", "address")).toContainText("string, 1 to 602 characters matching");
  await expect(field("NameAddressRequest", "address")).toContainText("Up to 3 lines");
  await expect(field("PublicUser", "isNDASent")).toContainText(`${apiDocsPage.example}: true`);
  const parameter = (call: string, name: string) =>
    page.locator(`section:has(> #call-${call}) .api-fields__entry:has(dt code:text-is("${name}"))`);
  await expect(parameter("getInvestors", "limit")).toContainText("integer from 1 to 500");
  await expect(parameter("getInvestors", "limit")).toContainText(`${apiDocsPage.example}: 1`);
  await expect(parameter("getInvestors", "limit")).toContainText("How many investors a page holds");
  await expect(parameter("getInvestors", "offset")).toContainText(apiDocsPage.deprecated);
  // Each call's summary leads its description.
  await expect(page.locator("section:has(> #call-getInvestors) > p").first()).toContainText(
    "List the investors. The investors, oldest first.",
  );
  const prose = await page.locator("main").evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    copy.querySelectorAll(".api-example").forEach((example) => example.remove());
    return copy.textContent ?? "";
  });
  expect(prose).not.toMatch(/"(type|\$ref|properties|anyOf)"/);

  // A shape's link leads to its definition on the same page.
  await page.locator("#call-login ~ div table").getByRole("link", { name: "LoginAnswer" }).click();
  await expectLandsOn(page, "schema-LoginAnswer");
  await expect(page.getByRole("link", { name: apiDocsPage.documentLink })).toHaveAttribute("href", "/api/openapi.json");

  await expectNoAxeViolations(page, "/api/docs");
  expect(problems).toEqual([]);
});

test("the table of contents links every call and shape, and each link lands on its section", async ({
  page,
  javaScriptOn,
}) => {
  await visit(page, "/api/docs", javaScriptOn);
  const { calls, shapes } = await callsOf(page);
  const contents = page.getByRole("navigation", { name: apiDocsPage.contents });
  for (const call of calls) {
    await expect(contents.getByRole("link", { name: `${call.method} ${call.path}`, exact: true })).toHaveAttribute(
      "href",
      new RegExp(`#call-${call.id}$`),
    );
  }
  for (const name of shapes) {
    // A shape may share its name with a tag (Qualification): the shape's link is the one to its section.
    const links = contents.getByRole("link", { name, exact: true });
    await expect(links.and(page.locator(`[href$="#schema-${name}"]`))).toHaveCount(1);
  }
  for (const call of calls) {
    await contents.getByRole("link", { name: `${call.method} ${call.path}`, exact: true }).click();
    await expectLandsOn(page, `call-${call.id}`);
  }
  await contents.getByRole("link", { name: "InvestorList", exact: true }).click();
  await expectLandsOn(page, "schema-InvestorList");
});

for (const width of [320, 375]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: 740 } });

    test("nothing scrolls the page sideways, the header is whole, examples scroll in their own box, and axe passes", async ({
      page,
      javaScriptOn,
    }) => {
      // axe over the whole reference at a phone's width: a long page.
      test.slow();
      const problems = await watchProblems(page);
      await visit(page, "/api/docs", javaScriptOn);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, "the page's sideways overflow").toBeLessThanOrEqual(0);

      const header = page.getByRole("banner");
      await expect(header).toBeInViewport({ ratio: 1 });
      expect(await header.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      await expect(header.getByRole("link", { name: /home$/ })).toBeInViewport({ ratio: 1 });
      await expect(header.getByLabel("Menu")).toBeInViewport({ ratio: 1 });

      // The longest example is wider than a phone: its own box scrolls, reachable by keyboard under its name.
      const answer = page.getByRole("region", { name: `${apiDocsPage.exampleAnswer} GET /api/user/get_investors` });
      expect(await answer.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
      await answer.focus();
      await expect(answer).toBeFocused();
      // Pressed again while the box has not moved: on a busy machine Chromium has dropped the first key of a long page.
      await expect
        .poll(async () => {
          await page.keyboard.press("ArrowRight");
          return answer.evaluate((element) => element.scrollLeft);
        })
        .toBeGreaterThan(0);

      // The table of contents still leads to a call far down the page.
      await page
        .getByRole("navigation", { name: apiDocsPage.contents })
        .getByRole("link", { name: "POST /api/user/delete_investor", exact: true })
        .click();
      await expectLandsOn(page, "call-deleteInvestor");
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );

      await expectNoAxeViolations(page, `/api/docs at ${width}px`);
      expect(problems).toEqual([]);
    });
  });
}
