import { createElement, lazy, Suspense } from "react";
import { renderDocument } from "~/server/render-document.server";

const page = (...children: Parameters<typeof createElement>[2][]) =>
  createElement("html", null, createElement("body", null, ...children));

describe("renderDocument", () => {
  it("renders the whole document, doctype first, and calls it complete", () => {
    const { html, complete } = renderDocument(page(createElement(Suspense, { fallback: "wait" }, "ready")));
    expect(html).toBe("<!DOCTYPE html><html><body><!--$-->ready<!--/$--></body></html>");
    expect(complete).toBe(true);
  });

  it("calls a document with a block that threw incomplete", () => {
    const Broken = () => {
      throw new Error("broken block");
    };
    const { complete } = renderDocument(page(createElement(Suspense, { fallback: null }, createElement(Broken))));
    expect(complete).toBe(false);
  });

  it("calls a document with a block still waiting incomplete", () => {
    const Waiting = lazy(() => new Promise<never>(() => {}));
    const { complete } = renderDocument(page(createElement(Suspense, { fallback: "wait" }, createElement(Waiting))));
    expect(complete).toBe(false);
  });

  it("lets an error outside any boundary through, for Remix's error page", () => {
    const Broken = () => {
      throw new Error("broken page");
    };
    expect(() => renderDocument(page(createElement(Broken)))).toThrow("broken page");
  });
});
