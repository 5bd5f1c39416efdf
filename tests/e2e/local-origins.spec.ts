/**
 * Which addresses a server takes forms from. With APP_URL set, only its origin: the page opened at
 * another of the machine's names is refused, saying which address to open, with and without
 * JavaScript. With APP_URL unset, a local run takes its own loopback names on its port (localhost,
 * 127.0.0.1, [::1]), so a newcomer's first `npm start` works whichever of them the browser opened.
 */
import type { Page } from "@playwright/test";
import { httpErrors } from "~/content/http-errors";
import { passwordField } from "./support/accounts";
import { expect, test, visit } from "./support/fixtures";
import { startPrivateServer } from "./support/private-server";
import { E2E_BASE_URL } from "./support/server";

const INVALID = "Invalid email or password";

async function tryToLogIn(page: Page) {
  await page.getByLabel("Email Address").fill("nobody.here@example.com");
  await passwordField(page).fill("not the password at all");
  await page.getByRole("button", { name: "Sign In" }).click();
}

test("with APP_URL set, a form from another of the machine's names is refused, naming the address to open", async ({
  page,
  javaScriptOn,
}) => {
  const elsewhere = E2E_BASE_URL.replace("localhost", "127.0.0.1");
  await visit(page, `${elsewhere}/financing/login`, javaScriptOn);
  await tryToLogIn(page);
  await expect(page.getByRole("heading", { name: "Request refused", level: 1 })).toBeVisible();
  await expect(page.getByText(httpErrors.crossOrigin(E2E_BASE_URL))).toBeVisible();
  await expect(page.getByText("try again in a moment")).toHaveCount(0);
});

test("with APP_URL unset, a local run takes forms from localhost, 127.0.0.1 and [::1] on its port", async ({
  page,
  javaScriptOn,
}) => {
  test.slow();
  const server = await startPrivateServer({ name: "local-run", env: { NODE_ENV: "development", APP_URL: undefined } });
  try {
    const listening = server.logLines().find((line) => line.event === "server.listening");
    expect(listening?.message).toBe(`Open http://localhost:${server.port}/ in a browser.`);
    for (const name of ["localhost", "127.0.0.1"]) {
      await visit(page, `http://${name}:${server.port}/financing/login`, javaScriptOn);
      await tryToLogIn(page);
      await expect(page.getByRole("alert").filter({ hasText: INVALID }), name).toBeVisible();
    }
    // The browser cannot reach [::1] here (the server listens on 127.0.0.1): its Origin alone is what is checked.
    for (const origin of [`http://[::1]:${server.port}`, `http://192.0.2.1:${server.port}`]) {
      const answer = await page.request.post(`${server.url}/financing/login`, {
        headers: { Origin: origin },
        form: { email: "nobody.here@example.com", password: "not the password at all" },
        maxRedirects: 0,
      });
      expect(answer.status(), origin).toBe(origin.includes("[::1]") ? 401 : 403);
    }
  } finally {
    await server.dispose();
  }
});
