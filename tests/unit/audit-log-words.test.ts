/**
 * Every action the code records has words in app/content/audit-log.ts: the source is scanned for the
 * actions it writes (an `action:` given to recordAuditEvent, changeWithAudit's record, afterFactorChange or
 * ndaChange, the action of ownAccountEvent or recordOwnAccountEvent, the re-seal's), so a new event without
 * words fails here.
 */
import fs from "node:fs";
import path from "node:path";
import { auditEvents } from "~/content/audit-log";
import { eventInWords, labelledDetails } from "~/models/audit/audit-log.server";
import { RESEAL_ACTION } from "../../migrations/audit-chain.js";

const root = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx)$/.test(entry.name) && !relative.startsWith(path.join("app", "content")) ? [relative] : [];
  });
}

const ACTION = /"([a-z_]+(?:\.[a-z_]+)+)"/g;

/** The actions written in the source: quoted names on a line that gives an `action`, or (record)OwnAccountEvent's. */
function writtenActions(): Set<string> {
  const actions = new Set<string>([RESEAL_ACTION]);
  for (const file of [...sourceFiles("app"), ...sourceFiles("scripts")]) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    for (const line of text.split("\n")) {
      if (!/\baction\??:|[oO]wnAccountEvent\(/.test(line) || /^\s*(\/\/|\*|\/\*)/.test(line)) continue;
      for (const [, action] of line.matchAll(ACTION)) actions.add(action);
    }
  }
  return actions;
}

describe("the audit log's words", () => {
  it("has words for every action the code records", () => {
    const actions = writtenActions();
    // The scan finds the actions it should: a regression in it would let the check pass vacuously.
    for (const known of [
      "login.succeeded",
      "materials.view",
      "nda.signed.changed",
      "mfa.totp_replaced",
      "audit.exported",
    ]) {
      expect(actions).toContain(known);
    }
    expect([...actions].filter((action) => !Object.hasOwn(auditEvents, action))).toEqual([]);
  });

  it("has words for the events other work adds", () => {
    for (const action of [
      "investor.corrected",
      "investor.factor_reset",
      "admin.invited",
      "admin.invitation_revoked",
      "admin.removed",
      "admin.factor_reset",
      "audit.exported",
      "materials.download",
    ]) {
      expect(Object.hasOwn(auditEvents, action), action).toBe(true);
    }
  });

  it("says each event as a sentence and labels its details", () => {
    expect(eventInWords("login.succeeded", { target: null, details: { method: "password+totp", via: "web" } })).toBe(
      "Signed in with password and authenticator",
    );
    expect(eventInWords("nda.signed.changed", { target: "ann@example.com", details: { state: true } })).toBe(
      "Marked the NDA signed for ann@example.com",
    );
    expect(eventInWords("materials.view", { target: null, details: { page: "/financing/materials" } })).toBe(
      "Viewed /financing/materials",
    );
    expect(
      labelledDetails({ method: "password+totp", via: "web", page: "/financing/materials", mailed: true }),
    ).toEqual([
      { label: "Method", value: "password and authenticator" },
      { label: "Through", value: "the website" },
      { label: "Page", value: "/financing/materials" },
      { label: "Investor e-mailed", value: "Yes" },
    ]);
  });

  it("labels an NDA change's flags in the table's words, not as stored", () => {
    expect(labelledDetails({ state: true, isNDASent: true, isNDASigned: false })).toEqual([
      { label: "New state", value: "Yes" },
      { label: "NDA sent", value: "Yes" },
      { label: "NDA completed", value: "No" },
    ]);
  });

  it("shows an unknown action as its code, its details still labelled", () => {
    expect(eventInWords("test.unknown", { target: null, details: {} })).toBe("test.unknown");
    expect(labelledDetails({ colour: "blue", count: 3, gone: null })).toEqual([
      { label: "colour", value: "blue" },
      { label: "count", value: "3" },
      { label: "gone", value: "none" },
    ]);
  });
});
