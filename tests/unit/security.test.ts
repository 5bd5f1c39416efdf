import { bodyLimitFor, corsHeaders, isCrossOriginWrite, securityHeaders, siteHostFor } from "~/http/security.server";
import { parseEnv } from "~/server/env.server";
import { redactPath } from "~/server/log.server";
import { TEST_KEYS } from "../support/test-keys";

/** A path the client spelled as Remix matches it. */
const at = (path: string, spelledPath = path) => ({ path, spelledPath });

const env = parseEnv({
  ...TEST_KEYS,
  APP_URL: "http://localhost:3000",
  API_ALLOWED_ORIGINS: "https://app.example.com",
});

describe("securityHeaders", () => {
  it("sets a nonce-based CSP and the framing, sniffing and opener headers", () => {
    const headers = securityHeaders(at("/"), "abc", env);
    expect(headers["Content-Security-Policy"]).toContain("script-src 'self' 'nonce-abc'");
    expect(headers["Content-Security-Policy"]).toContain("object-src 'none'");
    expect(headers["Content-Security-Policy"]).toContain("base-uri 'none'");
    expect(headers["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["Cross-Origin-Opener-Policy"]).toBe("same-origin");
    expect(headers["Strict-Transport-Security"]).toBeUndefined();
  });

  it("keeps every answer out of caches unless whoever answers says otherwise, public pages included", () => {
    for (const path of ["/", "/faq", "/no-such-page", "/financing/login"]) {
      expect(securityHeaders(at(path), "n", env)["Cache-Control"], path).toBe("no-store");
    }
    expect(securityHeaders(at("/faq"), "n", env)["X-Robots-Tag"]).toBeUndefined();
  });

  it("keeps the portal out of caches and search engines", () => {
    for (const path of [
      "/financing",
      "/financing/materials",
      "/financing/forgotpassword",
      "/financing/resetpassword/tok",
      "/auth/verify/tok",
      "/api/auth/login",
      "/pdfs/download.pdf",
    ]) {
      const headers = securityHeaders(at(path), "n", env);
      expect(headers["Cache-Control"], path).toBe("no-store");
      expect(headers["X-Robots-Tag"], path).toBe("noindex");
    }
  });

  it("lets search engines list the portal's doors, login and sign-up, which still are never cached", () => {
    for (const path of ["/financing/login", "/financing/signup"]) {
      const headers = securityHeaders(at(path), "n", env);
      expect(headers["Cache-Control"], path).toBe("no-store");
      expect(headers["X-Robots-Tag"], path).toBeUndefined();
    }
  });

  it("keeps a door's other spellings out of search engines: they are duplicates", () => {
    for (const spelled of ["/%66inancing/login", "/financing/login/", "/Financing/Login", "/x/../financing/login"]) {
      expect(securityHeaders(at("/financing/login", spelled), "n", env)["X-Robots-Tag"], spelled).toBe("noindex");
    }
  });

  it("keeps tokens in URLs from leaving the site in the Referer", () => {
    expect(securityHeaders(at("/auth/verify/tok"), "n", env)["Referrer-Policy"]).toBe("same-origin");
    expect(securityHeaders(at("/financing/resetpassword/tok"), "n", env)["Referrer-Policy"]).toBe("same-origin");
    expect(securityHeaders(at("/financing/invitation/tok"), "n", env)["Referrer-Policy"]).toBe("same-origin");
  });

  it("adds HSTS under https", () => {
    const secure = parseEnv({ APP_URL: "https://portal.example.com", ...TEST_KEYS });
    expect(securityHeaders(at("/"), "n", secure)["Strict-Transport-Security"]).toMatch(/max-age=\d+/);
  });
});

describe("isCrossOriginWrite", () => {
  const post = (pathname: string, origin?: string, secFetchSite?: string) =>
    isCrossOriginWrite({ method: "POST", pathname, origin, secFetchSite }, env);

  it("lets same-origin and origin-less POSTs through", () => {
    expect(post("/contact", "http://localhost:3000", "same-origin")).toBe(false);
    expect(post("/contact")).toBe(false);
  });

  it("refuses foreign, null and cross-site POSTs", () => {
    expect(post("/contact", "https://evil.example")).toBe(true);
    expect(post("/contact", "null")).toBe(true);
    expect(post("/contact", undefined, "cross-site")).toBe(true);
    expect(post("/contact", "http://localhost:3001")).toBe(true);
  });

  it("lets the configured origins call the API only", () => {
    expect(post("/api/auth/login", "https://app.example.com", "cross-site")).toBe(false);
    expect(post("/contact", "https://app.example.com", "cross-site")).toBe(true);
    expect(post("/api/auth/login", "https://other.example.com")).toBe(true);
  });

  it("takes a local run's own loopback names on its port when APP_URL is unset, and only APP_URL's once set", () => {
    const local = parseEnv({ ...TEST_KEYS, PORT: "3000" });
    const fromLocal = (origin: string) =>
      isCrossOriginWrite({ method: "POST", pathname: "/contact", origin, secFetchSite: "same-origin" }, local);
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]) {
      expect(fromLocal(origin), origin).toBe(false);
      expect(siteHostFor(origin, local), origin).toBe(new URL(origin).host);
    }
    for (const origin of ["http://127.0.0.1:3001", "http://192.168.1.20:3000", "https://localhost:3000"]) {
      expect(fromLocal(origin), origin).toBe(true);
      expect(siteHostFor(origin, local), origin).toBe("localhost:3000");
    }
    // env is the same machine with APP_URL set to localhost: its other names are refused.
    expect(post("/contact", "http://127.0.0.1:3000")).toBe(true);
    expect(post("/contact", "http://[::1]:3000")).toBe(true);
  });

  it("never refuses reads", () => {
    expect(
      isCrossOriginWrite(
        { method: "GET", pathname: "/", origin: "https://evil.example", secFetchSite: "cross-site" },
        env,
      ),
    ).toBe(false);
  });
});

describe("corsHeaders", () => {
  it("allows credentials for configured origins only", () => {
    expect(corsHeaders("https://app.example.com", env)["Access-Control-Allow-Origin"]).toBe("https://app.example.com");
    expect(corsHeaders("https://app.example.com", env)["Access-Control-Allow-Credentials"]).toBe("true");
    expect(corsHeaders("https://evil.example", env)).toEqual({});
    expect(corsHeaders(undefined, env)).toEqual({});
  });
});

describe("bodyLimitFor", () => {
  it("is 16 KiB on auth and API routes", () => {
    expect(bodyLimitFor("/api/auth/login")).toBe(16 * 1024);
    expect(bodyLimitFor("/financing/signup")).toBe(16 * 1024);
    expect(bodyLimitFor("/contact")).toBeGreaterThan(16 * 1024);
  });

  it("takes a PDF's worth on the administrators' pages that take one: the NDA page and an investor's page", () => {
    for (const path of ["/financing/nda", "/financing/investors/0b7d8b1e-3c1f-4f55-9d55-3c5b1f0b8a11"]) {
      expect(bodyLimitFor(path)).toBe(50 * 1024 * 1024 + 64 * 1024);
    }
    // Not the investor's other addresses under it.
    expect(bodyLimitFor("/financing/investors/x/delete")).toBe(16 * 1024);
  });

  it("holds however the path is spelled, as Remix matches it", () => {
    expect(bodyLimitFor("/API/Auth/Login")).toBe(16 * 1024);
    expect(bodyLimitFor("/Financing/SignUp")).toBe(16 * 1024);
  });
});

describe("redactPath", () => {
  it("hides the token or address in a path, in any spelling", () => {
    expect(redactPath("/auth/verify/secret-token")).toBe("/auth/verify/[redacted]");
    expect(redactPath("/AUTH/Verify/secret-token")).toBe("/AUTH/Verify/[redacted]");
    expect(redactPath("/API/auth/forgot-password/ada@example.com")).toBe("/API/auth/forgot-password/[redacted]");
  });

  it("hides everything after the secret's place, and takes an encoded slash for a slash", () => {
    expect(redactPath("/financing/resetpassword/secret-token/more")).toBe("/financing/resetpassword/[redacted]");
    expect(redactPath("/auth%2Fverify%2Fsecret-token")).toBe("/auth/verify/[redacted]");
    expect(redactPath("/financing/resetpassword%2Fsecret-token")).toBe("/financing/resetpassword/[redacted]");
    expect(redactPath("/financing/invitation/secret-token")).toBe("/financing/invitation/[redacted]");
    expect(redactPath("/alerts/signed-token.mac")).toBe("/alerts/[redacted]");
    expect(redactPath("/financing/alerts")).toBe("/financing/alerts");
    expect(redactPath("/financing/audit")).toBe("/financing/audit");
  });
});
