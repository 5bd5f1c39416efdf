/**
 * The investor's way from a verified e-mail to the materials on the one-sided setting (issue 52's measure,
 * target ≤ 6), walked over HTTP as a browser without JavaScript walks it: every page opened and every form
 * posted is one navigation, the redirects it is answered with included, as the browser's own Navigation
 * Timing counts a navigation (with its `redirectCount`): the investor acts once and waits for one page. The
 * HTTP requests, redirects each counted, are printed beside it. The walk starts at the login page (where the
 * verification page's link leads) and ends once the materials page answers. Opening the agreement's PDF to
 * review it before signing is counted as well: the investor is asked to read it.
 *
 * It runs against a second server on the run's database with NDA_ONE_SIDED=on; the firm's template is
 * uploaded through the administrators' NDA page first, outside the count.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { config, origin } from "./config";
import type { Row } from "./report";
import { addInvestors, databaseEnv, INVESTOR, withDatabase, type BenchDatabase } from "./seed";
import { startServer } from "./server";

const TARGET = 6;
/** Beside the run's own server (config.port) and the comparison's. */
const PORT_OFFSET = 7;

type Step = { method: "GET" | "POST"; path: string; status: number; navigation: number };

/** A browser without JavaScript: its cookies, and every request it makes on the way, redirects included. */
function browser(base: string) {
  const cookies = new Map<string, string>();
  const steps: Step[] = [];
  let navigation = 0;
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const keep = (answer: Response) => {
    for (const line of answer.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const send = async (method: "GET" | "POST", path: string, body?: URLSearchParams) => {
    const answer = await fetch(`${base}${path}`, {
      method,
      redirect: "manual",
      headers: {
        Cookie: cookieHeader(),
        Origin: base,
        ...(body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      },
      body: body?.toString(),
    });
    keep(answer);
    steps.push({ method, path, status: answer.status, navigation });
    return answer;
  };
  /** The request, then each redirect as the browser follows it; the page it lands on. */
  const go = async (method: "GET" | "POST", path: string, fields?: Record<string, string>) => {
    navigation += 1;
    let answer = await send(method, path, fields && new URLSearchParams(fields));
    while (answer.status >= 300 && answer.status < 400) {
      const next = new URL(answer.headers.get("location")!, base);
      answer = await send("GET", `${next.pathname}${next.search}`);
    }
    const text = await answer.text();
    if (answer.status >= 400) throw new Error(`${method} ${path} ended ${answer.status}: ${text.slice(0, 300)}`);
    return text;
  };
  return { steps, get: (path: string) => go("GET", path), post: go.bind(null, "POST") };
}

async function tenPageTemplate() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 10; n++) pdf.addPage().drawText(`Clause ${n}`, { x: 72, y: 700, font, size: 12 });
  return pdf.save();
}

async function uploadTemplate(base: string, adminCookie: string) {
  const form = new FormData();
  form.append("intent", "upload");
  form.append("file", new Blob([new Uint8Array(await tenPageTemplate())], { type: "application/pdf" }), "nda.pdf");
  const answer = await fetch(`${base}/financing/nda`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: adminCookie, Origin: base },
    body: form,
  });
  if (answer.status !== 302) throw new Error(`The NDA template's upload answered ${answer.status}.`);
}

/** A verified investor who has given nothing yet: the e-mail just verified. */
async function verifiedInvestor(database: BenchDatabase, hash: string) {
  const email = `nda-path-${randomUUID().slice(0, 8)}@example.com`;
  await addInvestors(database, [{ email, fullName: "", hash, n: 0, nda: 0 }]);
  await withDatabase(database, (db) => db.run("update users set address = '' where email = ?", [email]));
  return email;
}

/** Where the status page's forms post: its own address, marked as the index route's (as Remix renders the form's action). */
const STATUS_FORM = "/financing?index";

const hiddenValue = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1];

/** The walk itself; returns its steps. */
async function walk(base: string, email: string) {
  const investor = browser(base);
  await investor.get("/financing/login");
  const details = await investor.post("/financing/login", { email, password: INVESTOR.password });
  if (!details.includes('name="fullName"')) throw new Error("After the login, no name and address form.");
  const review = await investor.post(STATUS_FORM, {
    fullName: "Path Investor",
    addressLine1: "1 Path Street",
    addressLine2: "Springfield",
    addressLine3: "",
  });
  if (!review.includes('name="agree"'))
    throw new Error("After the name and address, no consent on the signature form.");
  const copySha256 = hiddenValue(review, "copySha256");
  if (!copySha256) throw new Error("After the name and address, no copy to sign.");
  await investor.get("/financing/nda.pdf");
  const materials = await investor.post(STATUS_FORM, {
    intent: "nda-sign",
    copySha256,
    typedName: "Path Investor",
    signIntent: "on",
    agree: "on",
    password: INVESTOR.password,
  });
  const last = investor.steps.at(-1)!;
  if (!last.path.startsWith("/financing/materials") || last.status !== 200 || !materials) {
    throw new Error(`The walk ended at ${last.method} ${last.path} (${last.status}), not the materials.`);
  }
  return investor.steps;
}

export async function ndaOneSidedPath(run: {
  rows: Row[];
  database: BenchDatabase;
  investorHash: string;
  adminCookie: () => Promise<string>;
}) {
  const port = config.port + PORT_OFFSET;
  // On PostgreSQL the file is never opened: DATABASE_URL wins, as on the run's own server.
  const file = typeof run.database === "string" ? run.database : path.join(os.tmpdir(), "unused.sqlite");
  const server = await startServer(file, { env: { NDA_ONE_SIDED: "on", ...databaseEnv(run.database) }, port });
  try {
    const base = origin(port);
    await uploadTemplate(base, await run.adminCookie());
    const steps = await walk(base, await verifiedInvestor(run.database, run.investorHash));
    const navigations = new Set(steps.map((step) => step.navigation)).size;
    const posts = steps.filter((step) => step.method === "POST").length;
    run.rows.push({
      figure: "NDA: the investor's way from a verified e-mail to the materials, one-sided, without JavaScript",
      value:
        `${navigations} navigations (${navigations - posts} pages opened, the PDF reviewed among them, ` +
        `${posts} forms posted); ${steps.length} HTTP requests with the redirects followed`,
      target: `≤ ${TARGET} navigations`,
      pass: navigations <= TARGET,
    });
    console.log(`NDA path: ${steps.map((step) => `${step.method} ${step.path} ${step.status}`).join(" → ")}`);
  } finally {
    await server.stop();
  }
}
