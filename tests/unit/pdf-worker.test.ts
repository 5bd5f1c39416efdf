/** pdf.js's worker, served by the app: the address the viewer names carries the installed version, and the route answers it as JavaScript, cached for good. */
import fs from "node:fs";
import { PDF_WORKER_PATH } from "~/lib/pdf-worker-path";
import { loader } from "~/routes/viewer.pdf[.]worker[.]mjs";

it("names the installed pdf.js version in the worker's address", () => {
  const { version } = JSON.parse(fs.readFileSync("node_modules/pdfjs-dist/package.json", "utf8")) as {
    version: string;
  };
  expect(PDF_WORKER_PATH).toBe(`/viewer/pdf.worker.mjs?v=${version}`);
});

it("serves the worker as JavaScript, cacheable for a year", async () => {
  const response = await loader();
  expect(response.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
  expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
  expect((await response.arrayBuffer()).byteLength).toBe(
    fs.statSync("node_modules/pdfjs-dist/build/pdf.worker.min.mjs").size,
  );
});
