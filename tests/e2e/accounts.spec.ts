import type { Page } from "@playwright/test";
import { accountMessages } from "~/content/account-messages";
import {
  createVerifiedAccount,
  freshResetPath,
  logIn,
  newAccount,
  passwordField,
  resetLink,
  signUp,
  submitLogin,
  TEST_PASSWORD,
  verificationLink,
} from "./support/accounts";
import { expect, expectNoAxeViolations, test, visit } from "./support/fixtures";
import { mailCount } from "./support/mail";

/**
 * A notice: a react-toastify toast with JavaScript (waited for until it has
 * finished sliding in, as axe would misjudge its contrast halfway), and the
 * server-rendered status line without.
 */
async function expectNotice(page: Page, javaScriptOn: boolean, text: string) {
  if (!javaScriptOn) {
    await expect(page.getByRole("status").filter({ hasText: text })).toBeVisible();
    return;
  }
  const toast = page.locator(".Toastify__toast").filter({ hasText: text });
  await expect(toast).toBeVisible();
  await toast.evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished)));
}

test.describe("the account life cycle", () => {
  // Whole journeys: a five-second countdown, argon2 hashes and axe on every step.
  test.slow();

  test("sign up, verify through the e-mailed link and its countdown, log in, log out", async ({
    page,
    javaScriptOn,
  }) => {
    const account = newAccount("lifecycle");

    await visit(page, "/financing/signup", javaScriptOn);
    await expect(page).toHaveTitle(/^Create an Account \|/);
    await expect(page.getByRole("heading", { level: 1, name: "Create an Account" })).toBeVisible();
    await expect(page.getByText(/only you and the agents you have authorized may view them/)).toBeVisible();
    await expectNoAxeViolations(page, "/financing/signup");
    await signUp(page, javaScriptOn, account);
    await expectNotice(page, javaScriptOn, "Verification Email Sent");
    // The page says where the link went and for how long, and says it still after a reload.
    // Headed by what to do now, with sending the link again beneath it.
    await expect(page.getByRole("heading", { level: 1, name: "Check your inbox" })).toBeVisible();
    await expect(page).toHaveTitle(/^Check your inbox \|/);
    await expect(page.getByRole("heading", { level: 2, name: "Resend Verification Email" })).toBeVisible();
    await expect(page.getByText(/It is valid for 24 hours\./)).toBeVisible();
    await page.reload();
    await expect(page.getByText(`We sent a link to ${account.email}`)).toBeVisible();
    await expect(page.getByLabel("Email Address")).toHaveValue(account.email);
    await expectNoAxeViolations(page, "the page after sign-up");
    // Sending it again from there works (and is throttled per address, as every resend is).
    await verificationLink(account.email);
    await page.getByRole("button", { name: "Send Verification Email" }).click();
    await expectNotice(page, javaScriptOn, "Verification Email Sent");
    await expect.poll(() => mailCount(account.email)).toBe(2);

    const link = await verificationLink(account.email);
    expect(link).toMatch(/^http:\/\/localhost:\d+\/auth\/verify\/[A-Za-z0-9_-]+$/);
    const response = await visit(page, link, javaScriptOn);
    expect(response?.headers()["referrer-policy"]).toBe("same-origin");
    await expect(page.getByText("Your email address has been successfully verified.")).toBeVisible();
    const countdown = page.getByRole("timer");
    if (javaScriptOn) {
      await expect(countdown).toHaveText(/^Redirecting in [1-5]\.\.\.$/);
      await expect(countdown).toHaveText(/^Redirecting in [1-3]\.\.\.$/, { timeout: 4_000 });
    } else {
      await expect(countdown).toHaveText("Redirecting in 5...");
      await expect(page.locator('noscript meta[http-equiv="refresh"]')).toHaveAttribute(
        "content",
        "5;url=/financing/login",
      );
    }
    await expect(page.getByRole("link", { name: "Go to the login page now" })).toHaveAttribute(
      "href",
      "/financing/login",
    );
    await expectNoAxeViolations(page, "the verification success page");
    await expect(page).toHaveURL(/\/financing\/login$/, { timeout: 8_000 });

    await submitLogin(page, javaScriptOn, account);
    await expect(page).toHaveURL(/\/financing$/);
    await expectNotice(page, javaScriptOn, "Log in success");
    const logOut = page.getByRole("banner").getByRole("button", { name: "LOG OUT" });
    await expect(logOut).toBeVisible();
    // A new investor's first screen: the name and address form (state 0).
    await expect(page.getByRole("heading", { name: "Your name and address" })).toBeVisible();
    await expectNoAxeViolations(page, "/financing, logged in");

    await logOut.click();
    await expect(page).toHaveURL(/\/financing\/login$/);
    await expect(page.getByRole("button", { name: "LOG OUT" })).toHaveCount(0);
    await visit(page, "/financing", javaScriptOn);
    await expect(page).toHaveURL(/\/financing\/login$/);
  });

  test("the login page links to sign-up and forgot password, and a logged-in visitor skips it", async ({
    page,
    javaScriptOn,
  }) => {
    await visit(page, "/financing/login", javaScriptOn);
    await expect(page).toHaveTitle(/^Sign In \|/);
    await expect(page.getByRole("button", { name: "LOG OUT" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Create here" })).toHaveAttribute("href", "/financing/signup");
    await expect(page.getByRole("link", { name: "Forgot Password?" })).toHaveAttribute(
      "href",
      "/financing/forgotpassword",
    );
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await expectNoAxeViolations(page, "/financing/login");

    const account = await createVerifiedAccount(page, javaScriptOn, "skip-login");
    await logIn(page, javaScriptOn, account);
    for (const url of ["/financing/login", "/financing/signup", "/financing/forgotpassword"]) {
      await visit(page, url, javaScriptOn);
      await expect(page, url).toHaveURL(/\/financing$/);
    }
  });

  test("forgot password: the e-mailed link resets it, the old password fails and the new one works", async ({
    page,
    javaScriptOn,
  }) => {
    const account = await createVerifiedAccount(page, javaScriptOn, "reset");
    const newPassword = "A-brand-new-passphrase-for-2025";

    await visit(page, "/financing/forgotpassword", javaScriptOn);
    await expect(page).toHaveTitle(/^Forgot Password \|/);
    await expectNoAxeViolations(page, "/financing/forgotpassword");
    await page.getByLabel("Email Address").fill(account.email);
    await page.getByRole("button", { name: "Forgot Password" }).click();
    await expectNotice(page, javaScriptOn, "Reset Email Sent");

    const link = await resetLink(account.email);
    const response = await visit(page, link, javaScriptOn);
    expect(response?.headers()["referrer-policy"]).toBe("same-origin");
    await expect(page).toHaveTitle(/^Reset Password \|/);
    await expectNoAxeViolations(page, "/financing/resetpassword/{token}");
    await passwordField(page).fill(newPassword);
    await page.getByLabel("Confirm Password").fill(newPassword);
    await page.getByRole("button", { name: "Reset Password" }).click();

    await expectNotice(page, javaScriptOn, "Password has been reset");
    await expect(page.getByRole("button", { name: "Reset Password" })).toHaveCount(0);
    const backToLogin = page.getByRole("link", { name: "Back to login" });
    await expect(backToLogin).toBeVisible();
    await expectNoAxeViolations(page, "the reset page after success");
    await backToLogin.click();
    await expect(page).toHaveURL(/\/financing\/login$/);

    await submitLogin(page, javaScriptOn, account);
    await expect(page.getByRole("alert").filter({ hasText: accountMessages.invalidCredentials })).toBeVisible();
    await expect(page).toHaveURL(/\/financing\/login$/);
    await expect(page.getByLabel("Email Address")).toHaveValue(account.email);
    await expect(passwordField(page)).toHaveValue("");
    await expectNoAxeViolations(page, "/financing/login with a wrong password");

    await logIn(page, javaScriptOn, { email: account.email, password: newPassword });
    await expectNotice(page, javaScriptOn, "Log in success");
  });

  test("a used or unknown reset link is refused as the page opens, with a way to ask for a new one", async ({
    page,
    javaScriptOn,
  }) => {
    const usedLink = await freshResetPath(page.request);
    const reset = await page.request.post(usedLink, {
      form: { password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
      maxRedirects: 0,
    });
    expect(reset.status()).toBe(302);

    for (const link of ["/financing/resetpassword/not-a-real-token", usedLink]) {
      const response = await visit(page, link, javaScriptOn);
      expect(response?.status(), link).toBe(400);
      // Said at once: no form to fill in for nothing.
      await expect(page.getByRole("alert").filter({ hasText: accountMessages.resetLinkInvalid })).toBeVisible();
      await expect(passwordField(page)).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Request a new reset link" })).toHaveAttribute(
        "href",
        "/financing/forgotpassword",
      );
      await expectNoAxeViolations(page, "the reset page with a refused link");
    }
  });

  test("an unverified account cannot log in, and can have the verification e-mail sent again", async ({
    page,
    javaScriptOn,
  }) => {
    const account = newAccount("unverified");
    await signUp(page, javaScriptOn, account);
    await verificationLink(account.email);
    const mailsBefore = mailCount(account.email);

    await submitLogin(page, javaScriptOn, account);
    await expect(page.getByRole("alert").filter({ hasText: accountMessages.unverified })).toBeVisible();
    await expect(page).toHaveURL(/\/financing\/login$/);
    await expectNoAxeViolations(page, "/financing/login refusing an unverified account");

    await page.getByRole("button", { name: "Send the verification email again" }).click();
    await expect(page).toHaveURL(/\/financing\/login$/);
    await expectNotice(page, javaScriptOn, "Verification Email Sent");
    await expect.poll(() => mailCount(account.email)).toBe(mailsBefore + 1);

    await visit(page, await verificationLink(account.email), javaScriptOn);
    await expect(page.getByText("Your email address has been successfully verified.")).toBeVisible();
    await logIn(page, javaScriptOn, account);
  });

  test("too many reset e-mails for one address: the message, and Retry-After", async ({ page, javaScriptOn }) => {
    const email = newAccount("throttled").email;
    const askForReset = async () => {
      await visit(page, "/financing/forgotpassword", javaScriptOn);
      await page.getByLabel("Email Address").fill(email);
      const answer = page.waitForResponse(
        (response) => response.request().method() === "POST" && response.url().includes("/financing/forgotpassword"),
      );
      await page.getByRole("button", { name: "Forgot Password" }).click();
      return answer;
    };
    for (let allowed = 0; allowed < 3; allowed += 1) {
      await askForReset();
      await expectNotice(page, javaScriptOn, "Reset Email Sent");
    }
    const refused = await askForReset();
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
    await expect(page.getByRole("alert").filter({ hasText: accountMessages.resetMailsThrottled })).toBeVisible();
    await expect(page.getByLabel("Email Address")).toHaveValue(email);
    await expectNoAxeViolations(page, "/financing/forgotpassword when throttled");
  });

  test("a refused verification link explains and leads to a new one", async ({ page, javaScriptOn }) => {
    await visit(page, "/auth/verify/not-a-real-token", javaScriptOn);
    await expect(page).toHaveTitle(/^Email Verification \|/);
    await expect(page.getByRole("heading", { level: 1, name: "We could not verify your email address" })).toBeVisible();
    await expect(page.getByText(accountMessages.verifyLinkInvalid)).toBeVisible();
    await expect(page.getByRole("timer")).toHaveCount(0);
    await expectNoAxeViolations(page, "the verification failure page");

    await page.getByRole("link", { name: "Request a new verification link" }).click();
    await expect(page).toHaveURL(/\/financing\/verify-email$/);
    await expect(page).toHaveTitle(/^Resend Verification Email \|/);
    await expectNoAxeViolations(page, "/financing/verify-email");
  });
});

test("the account pages load and hydrate without console errors", async ({ page, javaScriptOn }) => {
  test.slow();
  const refusedLinks = ["/auth/verify/not-a-real-token", "/financing/resetpassword/some-token"];
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error" && message.type() !== "warning") return;
    // The refused links answer 400 on purpose; the browser reports every 4xx document.
    if (refusedLinks.some((link) => page.url().endsWith(link)) && /status of 400/.test(message.text())) return;
    problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));

  for (const url of [
    "/financing/login",
    "/financing/signup",
    "/financing/forgotpassword",
    await freshResetPath(page.request),
    "/financing/verify-email",
    ...refusedLinks,
  ]) {
    await visit(page, url, javaScriptOn);
  }
  const account = newAccount("console");
  await signUp(page, javaScriptOn, account);
  await visit(page, await verificationLink(account.email), javaScriptOn);
  await expect(page).toHaveURL(/\/financing\/login$/, { timeout: 10_000 });
  expect(problems).toEqual([]);
});

test.describe("validation messages beside their fields", () => {
  test("sign-up: invalid e-mail, empty password, mismatched confirmation, too short, too common", async ({
    page,
    javaScriptOn,
  }) => {
    // Five refusals, each checked with axe: about 20 s on two busy cores, past the default budget.
    test.slow();
    await visit(page, "/financing/signup", javaScriptOn);
    const email = page.getByLabel("Email Address");
    const password = passwordField(page);
    const confirm = page.getByLabel("Confirm Password");
    const signUpButton = page.getByRole("button", { name: "Sign Up" });

    await email.fill("not-an-email");
    await signUpButton.click();
    await expect(email).toHaveAccessibleDescription("Email address is invalid");
    await expect(password).toHaveAccessibleDescription(/Password cannot be empty/);
    await expect(email).toHaveValue("not-an-email");
    await expectNoAxeViolations(page, "/financing/signup with field errors");

    const address = newAccount("validation").email;
    await email.fill(address);
    await password.fill("short");
    await confirm.fill("short");
    await signUpButton.click();
    await expect(password).toHaveAccessibleDescription(/Password must be at least 8 characters/);
    await expect(email).not.toHaveAttribute("aria-invalid", "true");

    await password.fill(TEST_PASSWORD);
    await confirm.fill(`${TEST_PASSWORD}-typo`);
    await signUpButton.click();
    await expect(confirm).toHaveAccessibleDescription("Passwords doesn't match");

    // Only the server knows the common-password list: this one goes all the way there.
    await password.fill("password");
    await confirm.fill("password");
    await signUpButton.click();
    await expect(password).toHaveAccessibleDescription(/This password is too common\. Choose another\./);
    // With JavaScript, the server's refusal moves focus to the field it names.
    if (javaScriptOn) await expect(password).toBeFocused();
    await expect(page).toHaveURL(/\/financing\/signup$/);
    await expect(email).toHaveValue(address);
    await expect(password).toHaveValue("");
    await expect(confirm).toHaveValue("");
    await expectNoAxeViolations(page, "/financing/signup with a common password");
    expect(mailCount(address)).toBe(0);
  });

  test("login: invalid e-mail and empty password", async ({ page, javaScriptOn }) => {
    await visit(page, "/financing/login", javaScriptOn);
    await page.getByLabel("Email Address").fill("someone@");
    if (javaScriptOn) {
      // With JavaScript a field is checked as soon as it is left.
      await page.getByLabel("Email Address").blur();
      await expect(page.getByLabel("Email Address")).toHaveAccessibleDescription("Email address is invalid");
      await expect(passwordField(page)).toHaveAccessibleDescription("");
    }
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByLabel("Email Address")).toHaveAccessibleDescription("Email address is invalid");
    await expect(passwordField(page)).toHaveAccessibleDescription("Password cannot be empty");
    if (javaScriptOn) await expect(page.getByLabel("Email Address")).toBeFocused();
    await expect(page.getByLabel("Email Address")).toHaveValue("someone@");
    await expectNoAxeViolations(page, "/financing/login with field errors");
  });

  test("forgot password: invalid e-mail", async ({ page, javaScriptOn }) => {
    await visit(page, "/financing/forgotpassword", javaScriptOn);
    await page.getByLabel("Email Address").fill("nobody at example.com");
    await page.getByRole("button", { name: "Forgot Password" }).click();
    await expect(page.getByLabel("Email Address")).toHaveAccessibleDescription("Email address is invalid");
    await expect(page).toHaveURL(/\/financing\/forgotpassword$/);
    await expectNoAxeViolations(page, "/financing/forgotpassword with a field error");
  });

  test("reset password: empty, too short and mismatched", async ({ page, javaScriptOn }) => {
    await visit(page, await freshResetPath(page.request), javaScriptOn);
    const password = passwordField(page);
    const confirm = page.getByLabel("Confirm Password");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(password).toHaveAccessibleDescription(/Password cannot be empty/);

    await password.fill("1234567");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(password).toHaveAccessibleDescription(/Password must be at least 8 characters/);

    await password.fill(TEST_PASSWORD);
    await confirm.fill("something else entirely");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(confirm).toHaveAccessibleDescription("Passwords doesn't match");
    await expectNoAxeViolations(page, "/financing/resetpassword with field errors");
  });
});

test.describe("the forms at phone and desktop widths", () => {
  const forms = [
    { url: "/financing/login", button: "Sign In" },
    { url: "/financing/signup", button: "Sign Up" },
    { url: "/financing/forgotpassword", button: "Forgot Password" },
    // A reset page needs a live link of its own: made fresh for the test.
    { url: "/financing/resetpassword/{token}", button: "Reset Password" },
    { url: "/financing/verify-email", button: "Send Verification Email" },
  ];
  for (const width of [375, 1280]) {
    for (const form of forms) {
      test(`${form.url} fits ${width}px without sideways scrolling and passes axe`, async ({ page, javaScriptOn }) => {
        await page.setViewportSize({ width, height: 800 });
        const url = form.url.endsWith("{token}") ? await freshResetPath(page.request) : form.url;
        await visit(page, url, javaScriptOn);
        const button = page.getByRole("button", { name: form.button, exact: true });
        await expect(button).toBeVisible();
        const box = (await button.boundingBox())!;
        expect(box.x + box.width, "the button fits").toBeLessThanOrEqual(width);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, "no sideways scrolling").toBeLessThanOrEqual(0);
        await expectNoAxeViolations(page, `${form.url} at ${width}px`);
      });
    }
  }
});
