import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodePage, pageEncodingFor } from "~/http/page-encoding.server";

const page = `<!DOCTYPE html><html><body>${"<p>Instant settlement for U.S. stocks and ETFs.</p>".repeat(200)}</body></html>`;

describe("a cached page's encoding", () => {
  it("is brotli for a browser that takes it, whatever order it lists its encodings in", () => {
    expect(pageEncodingFor("gzip, deflate, br, zstd")).toBe("br");
    expect(pageEncodingFor("br")).toBe("br");
    expect(pageEncodingFor("*")).toBe("br");
  });

  it("is gzip for a client that takes gzip and not brotli, or likes gzip better", () => {
    expect(pageEncodingFor("gzip")).toBe("gzip");
    expect(pageEncodingFor("gzip, deflate")).toBe("gzip");
    expect(pageEncodingFor("br;q=0, gzip")).toBe("gzip");
    expect(pageEncodingFor("br;q=0.5, gzip")).toBe("gzip");
  });

  it("is deflate for a client that takes only deflate", () => {
    expect(pageEncodingFor("deflate")).toBe("deflate");
    expect(pageEncodingFor("deflate, identity;q=0")).toBe("deflate");
  });

  it("is none without the header, or for a client that takes none of them", () => {
    expect(pageEncodingFor(undefined)).toBe("identity");
    expect(pageEncodingFor("")).toBe("identity");
    expect(pageEncodingFor("identity")).toBe("identity");
    expect(pageEncodingFor("zstd")).toBe("identity");
    expect(pageEncodingFor("gzip;q=0, br;q=0, deflate;q=0")).toBe("identity");
  });

  it("gives bytes that decode to the very page, smaller than it", () => {
    const brotli = encodePage(page, "gzip, deflate, br");
    expect(brotli.encoding).toBe("br");
    expect(brotliDecompressSync(brotli.body).toString("utf8")).toBe(page);
    expect(brotli.body.length).toBeLessThan(page.length / 10);

    const gzip = encodePage(page, "gzip");
    expect(gzip.encoding).toBe("gzip");
    expect(gunzipSync(gzip.body).toString("utf8")).toBe(page);

    const deflate = encodePage(page, "deflate");
    expect(deflate.encoding).toBe("deflate");
    expect(inflateSync(deflate.body).toString("utf8")).toBe(page);

    expect(encodePage(page, undefined)).toEqual({ encoding: "identity", body: page });
  });
});
