import { decodedPathOf, decodeRequestPath } from "~/http/request-path.server";

/** What Remix's request URL makes of a path as Express received it (@remix-run/express: `new URL`). */
const remixPathname = (raw: string) => new URL(`http://localhost${raw}`).pathname;
/** How React Router decodes a pathname before it matches routes (@remix-run/router's decodePath). */
const routerDecoded = (pathname: string) =>
  pathname
    .split("/")
    .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
    .join("/");

describe("decodeRequestPath", () => {
  it("decodes each segment's escapes, as Remix does before it matches a route", () => {
    expect(decodeRequestPath("/%66inancing/audit")).toEqual({ path: "/financing/audit", malformed: false });
    expect(decodeRequestPath("/%61pi/user/get_investors").path).toBe("/api/user/get_investors");
    expect(decodeRequestPath("/financing/%72esetpassword/abc").path).toBe("/financing/resetpassword/abc");
    expect(decodeRequestPath("/caf%C3%A9").path).toBe("/café");
  });

  it("keeps an encoded slash inside its segment, as Remix does", () => {
    expect(decodeRequestPath("/financing%2Faudit").path).toBe("/financing%2Faudit");
    expect(decodeRequestPath("/financing/a%2fb").path).toBe("/financing/a%2Fb");
  });

  it("resolves dot segments as the URL parser does, %2e counting as a dot", () => {
    expect(decodeRequestPath("/x/../financing/audit").path).toBe("/financing/audit");
    expect(decodeRequestPath("/x/%2e%2e/financing/audit").path).toBe("/financing/audit");
    expect(decodeRequestPath("/x/.%2E/api/user/get_investors").path).toBe("/api/user/get_investors");
    expect(decodeRequestPath("/./financing/./audit").path).toBe("/financing/audit");
    expect(decodeRequestPath("/../../financing").path).toBe("/financing");
    expect(decodeRequestPath("/financing/audit/..").path).toBe("/financing/");
    expect(decodeRequestPath("/financing/.").path).toBe("/financing/");
    // An escaped escape is a name, not a dot.
    expect(decodeRequestPath("/x/%252e%252e/faq").path).toBe("/x/%2e%2e/faq");
  });

  it("reads a backslash as a slash, as the URL parser does", () => {
    expect(decodeRequestPath("/api\\user\\get_investors").path).toBe("/api/user/get_investors");
    expect(decodeRequestPath("/x\\..\\financing").path).toBe("/financing");
  });

  it("makes runs of slashes one, so a secret behind one is still found", () => {
    expect(decodeRequestPath("//financing//resetpassword/abc").path).toBe("/financing/resetpassword/abc");
    expect(decodeRequestPath("/faq//").path).toBe("/faq/");
  });

  it("keeps the case: the rules compare lower-cased, the log shows what was asked", () => {
    expect(decodeRequestPath("/FINANCING/%41udit").path).toBe("/FINANCING/Audit");
  });

  it("decodes a control character, for server.js to refuse", () => {
    expect(decodeRequestPath("/financing/investors/a%00b").path).toBe("/financing/investors/a\u0000b");
  });

  it("says a path is malformed when an escape is not UTF-8, and decodes what it can for the log", () => {
    expect(decodeRequestPath("/%E0%A4%A")).toEqual({ path: "/%E0%A4%A", malformed: true });
    expect(decodeRequestPath("/faq%E0%A4%A").malformed).toBe(true);
    expect(decodeRequestPath("/api/%").malformed).toBe(true);
    expect(decodeRequestPath("/api/%").path).toBe("/api/%");
    expect(decodeRequestPath("/financing/%72esetpassword/tok%zz")).toEqual({
      path: "/financing/resetpassword/tok%zz",
      malformed: true,
    });
    expect(decodeRequestPath("/%72eset%E0%2F")).toEqual({ path: "/reset%E0%2F", malformed: true });
  });

  it("gives the path Remix matches for every spelling above", () => {
    for (const raw of [
      "/%66inancing/audit",
      "/financing%2Faudit",
      "/x/%2e%2e/financing/audit",
      "/x/.%2E/api/user/get_investors",
      "/api\\user\\get_investors",
      "/financing/audit/..",
      "/FINANCING/%41udit",
      "/caf%C3%A9",
      "/faq/",
    ]) {
      expect(decodeRequestPath(raw).path, raw).toBe(routerDecoded(remixPathname(raw)));
    }
  });
});

describe("decodedPathOf", () => {
  it("decodes a request's path inside the app as server.js decoded it", () => {
    expect(decodedPathOf(new Request("http://localhost/x/%2e%2e/%66inancing/%72esetpassword/tok"))).toBe(
      "/financing/resetpassword/tok",
    );
  });
});
