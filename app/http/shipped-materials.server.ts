/** The SHA-256 of the shipped files the materials page's specification links open, read once per process. */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { ShippedDigests } from "~/lib/materials-list";
import { PRIVATE_DIR, PRIVATE_FILES } from "./private-file.server";

async function digestOf(name: string): Promise<string | null> {
  try {
    return createHash("sha256")
      .update(await fs.readFile(path.join(PRIVATE_DIR, name)))
      .digest("hex");
  } catch {
    // No file, no pairing: the library's documents are then listed on their own, none hidden.
    return null;
  }
}

let digests: Promise<ShippedDigests> | null = null;

export function shippedDigests(): Promise<ShippedDigests> {
  digests ??= Promise.all([digestOf(PRIVATE_FILES.pdf.name), digestOf(PRIVATE_FILES.investorVideo.name)]).then(
    ([pdf, video]) => ({ pdf, video }),
  );
  return digests;
}
