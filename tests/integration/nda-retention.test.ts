/**
 * A deleted investor's NDA is kept for the firm's records NDA_RETENTION_YEARS after the deletion, then
 * housekeeping deletes its rows and files; a living investor's NDA is never touched. Real database.
 */
import { PDFDocument } from "pdf-lib";
import { pruneExpiredRows } from "~/models/housekeeping.server";
import { deleteInvestor } from "~/models/investors/investor-deletion.server";
import { giveConsent } from "~/models/nda/nda-consent.server";
import { copyToReview } from "~/models/nda/nda-copies.server";
import { signNda } from "~/models/nda/nda-signing.server";
import { addNdaTemplate } from "~/models/nda/nda-templates.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { useIntegration } from "../support/integration";

const { investor, administrator, clock: testClock } = useIntegration();
let admin: { id: string; email: string };

beforeAll(async () => {
  admin = await administrator({ email: "retention-admin@firm.test" });
  const pdf = await PDFDocument.create();
  pdf.addPage();
  const added = await addNdaTemplate({ bytes: await pdf.save(), fileName: "nda.pdf" }, admin);
  if (!added.ok) throw new Error(added.message);
});

async function signedInvestor(email: string) {
  const row = await investor("named", { email, fullName: "Rhea Tension", address: "9 Archive Lane" });
  const signer = { id: row.id, email: row.email, fullName: row.full_name };
  await giveConsent(signer, { agreed: true, ip: "192.0.2.40", userAgent: null });
  const copy = await copyToReview(row.id, null);
  if (!copy.ok) throw new Error(copy.message);
  const signed = await signNda(signer, {
    typedName: "Rhea Tension",
    copySha256: copy.copy.sha256,
    intent: true,
    authMethod: "password",
    ip: "192.0.2.40",
    userAgent: null,
  });
  if (!signed.ok) throw new Error(signed.message);
  return row.id;
}

/** The investor's NDA rows, and how many of the files they named are still stored. */
async function ndaOf(userId: string) {
  const db = getDb();
  const [consents, copies, signatures] = await Promise.all([
    db.selectFrom("nda_consents").select("id").where("user_id", "=", userId).execute(),
    db.selectFrom("nda_copies").select("blob_id").where("user_id", "=", userId).execute(),
    db.selectFrom("nda_signatures").select("signed_blob_id").where("user_id", "=", userId).execute(),
  ]);
  return { consents: consents.length, copies: copies.length, signatures: signatures.length };
}

describe("NDA retention", () => {
  it("deletes a deleted investor's NDA and its files only once NDA_RETENTION_YEARS have passed", async () => {
    const gone = await signedInvestor("gone@example.com");
    const living = await signedInvestor("living@example.com");
    const files = await getDb()
      .selectFrom("nda_signatures")
      .innerJoin("nda_copies", "nda_copies.id", "nda_signatures.copy_id")
      .select(["nda_signatures.signed_blob_id", "nda_copies.blob_id"])
      .where("nda_signatures.user_id", "=", gone)
      .executeTakeFirstOrThrow();
    const goneFiles = [files.signed_blob_id!, files.blob_id];
    const stored = async () =>
      (await getDb().selectFrom("blobs").select("id").where("id", "in", goneFiles).execute()).length;
    const whole = { consents: 1, copies: 1, signatures: 1 };

    expect(await deleteInvestor({ actor: admin, id: gone })).toMatchObject({ ok: true });
    const years = getEnv().nda.retentionYears;
    testClock.advance((years * 365.25 - 1) * 24 * 3600 * 1000);
    expect(await pruneExpiredRows()).toMatchObject({ expiredNdas: 0 });
    expect(await ndaOf(gone)).toEqual(whole);
    expect(await stored()).toBe(2);

    testClock.advance(2 * 24 * 3600 * 1000);
    expect(await pruneExpiredRows()).toMatchObject({ expiredNdas: 1 });
    expect(await ndaOf(gone)).toEqual({ consents: 0, copies: 0, signatures: 0 });
    expect(await stored()).toBe(0);
    expect(await ndaOf(living)).toEqual(whole);
    expect(await pruneExpiredRows()).toMatchObject({ expiredNdas: 0 });
  });
});
