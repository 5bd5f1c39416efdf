/**
 * A change is stored together with its audit row, in one transaction, or not at all (decision 0026): the
 * trail (and the NDA's steps, read from it) never lacks a change that was made. The audit row is refused here by a trigger, as a full disk or a lost connection would refuse it.
 * A real database file (or PostgreSQL database) and a real SMTP catcher.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { sql } from "kysely";
import { createOneTimeToken } from "~/models/account/one-time-token.server";
import { hashSecretToken, newSecretToken } from "~/models/account/secret-token.server";
import { recordSignIn } from "~/models/account/sign-in.server";
import { registerAccount, verifyEmail } from "~/models/account/sign-up.server";
import { toPublicUser } from "~/models/account/user.server";
import {
  acceptInvitation,
  inviteAdministrator,
  revokeInvitation,
} from "~/models/administrators/admin-invitation.server";
import { removeAdministrator } from "~/models/administrators/administrators.server";
import { createOrPromoteAdministrator } from "~/models/administrators/create-admin.server";
import { listAuditEvents } from "~/models/audit/audit.server";
import { deleteInvestor } from "~/models/investors/investor-deletion.server";
import { setNameAndAddress } from "~/models/investors/investor-profile.server";
import { correctInvestor } from "~/models/investors/investor-record.server";
import { setNdaSent, setNdaSigned } from "~/models/investors/nda-flags.server";
import { setAudience } from "~/models/library/library-audience.server";
import {
  addVersion,
  createDocument,
  editDocument,
  moveDocument,
  setPublished,
} from "~/models/library/library-changes.server";
import { listLibrary } from "~/models/library/library-documents.server";
import { recordOpening } from "~/models/library/library-openings.server";
import { storeBlob } from "~/server/blob-store.server";
import { now } from "~/server/clock.server";
import { getDb } from "~/server/db.server";
import { createUser, userRow } from "../support/factories";
import { useIntegration } from "../support/integration";

const { smtp, database } = useIntegration({ mail: true });

/** Makes every insert into the audit trail fail (or only those of `action`), as the database itself would refuse it. */
async function refuseAuditRows(action?: string) {
  const only = action ? sql`when (new.action = ${sql.lit(action)})` : sql``;
  if (database.engine === "postgres") {
    await sql`create function refuse_audit_row() returns trigger language plpgsql as $$
      begin raise exception 'audit row refused'; end $$`.execute(getDb());
    await sql`create trigger refuse_audit_row before insert on audit_events
      for each row ${only} execute function refuse_audit_row()`.execute(getDb());
  } else {
    await sql`create trigger refuse_audit_row before insert on audit_events ${only}
      begin select raise(abort, 'audit row refused'); end`.execute(getDb());
  }
}

async function acceptAuditRows() {
  await sql`drop trigger refuse_audit_row ${sql.raw(database.engine === "postgres" ? "on audit_events" : "")}`.execute(
    getDb(),
  );
  if (database.engine === "postgres") await sql`drop function refuse_audit_row()`.execute(getDb());
}

const auditRowCount = async () => (await listAuditEvents({ limit: 1 })).total;

/** `mailsAfter`: the change mails the investor, and records whether it went in a row after its own. */
type Change = { name: string; run: () => Promise<unknown>; auditAction: string; mailsAfter?: true };

async function changesOf() {
  const admin = await createUser({ named: true, role: "administrator" });
  const ready = await createUser({ named: true, fullName: "Jane Roe" });
  const unnamed = await createUser();
  const signed = await createUser({ signed: true, fullName: "Sam Signed", address: "2 Main St" });
  const actor = { id: admin.id, email: admin.email };
  const changes: Change[] = [
    {
      name: "NDA sent",
      run: () => setNdaSent({ actor, email: ready.email, state: true }),
      auditAction: "nda.sent.changed",
    },
    {
      name: "NDA signed",
      run: () => setNdaSigned({ actor, email: ready.email, state: true }),
      auditAction: "nda.signed.changed",
      mailsAfter: true,
    },
    {
      name: "name and address given",
      run: () =>
        setNameAndAddress({
          actor: toPublicUser(unnamed),
          email: unnamed.email,
          fullName: "Ada Lovelace",
          address: "12 St James's Square, London",
        }),
      auditAction: "profile.name_address.set",
    },
    {
      name: "an administrator's correction",
      run: () =>
        correctInvestor({
          actor,
          id: ready.id,
          correction: { fullName: "Jane Roe-Smith", address: ready.address, reason: "Her married name" },
        }),
      auditAction: "investor.corrected",
    },
    {
      name: "NDA signed withdrawn",
      run: () => setNdaSigned({ actor, email: signed.email, state: false }),
      auditAction: "nda.signed.changed",
    },
    {
      name: "NDA sent withdrawn",
      run: () => setNdaSent({ actor, email: signed.email, state: false }),
      auditAction: "nda.sent.changed",
    },
    {
      name: "name and address corrected by an administrator",
      run: () =>
        setNameAndAddress({
          actor: toPublicUser(admin),
          email: signed.email,
          fullName: "Sam Signed",
          address: "3 Main St",
        }),
      auditAction: "profile.name_address.corrected",
    },
    { name: "deletion", run: () => deleteInvestor({ actor, id: unnamed.id }), auditAction: "investor.deleted" },
  ];
  return { changes, ready, unnamed, signed };
}

describe("a change and its audit row", () => {
  it("are not stored at all when the audit row cannot be, and nothing is mailed", async () => {
    const { changes, ready, unnamed, signed } = await changesOf();
    const before = {
      ready: await userRow(ready.id),
      unnamed: await userRow(unnamed.id),
      signed: await userRow(signed.id),
    };
    const rows = await auditRowCount();
    const mails = smtp.messages.length;

    await refuseAuditRows();
    try {
      for (const change of changes) {
        await expect(change.run(), change.name).rejects.toThrow(/audit row refused/);
      }
    } finally {
      await acceptAuditRows();
    }
    expect(await userRow(ready.id)).toEqual(before.ready);
    expect(await userRow(unnamed.id)).toEqual(before.unnamed);
    expect(await userRow(signed.id)).toEqual(before.signed);
    expect(await auditRowCount()).toBe(rows);
    expect(smtp.messages.length).toBe(mails);
  });

  it("are stored together once the audit row can be: each change with its one row", async () => {
    const { changes, ready, unnamed } = await changesOf();
    for (const change of changes) {
      const rows = await auditRowCount();
      const result = await change.run();
      expect(result, change.name).toMatchObject({ ok: true });
      const { events } = await listAuditEvents({ limit: 3 });
      const added = events.slice(0, (await auditRowCount()) - rows).map((event) => event.action);
      expect(added, change.name).toEqual(
        change.mailsAfter ? ["investor.materials_mailed", change.auditAction] : [change.auditAction],
      );
    }
    expect(await userRow(ready.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1, full_name: "Jane Roe-Smith" });
    expect(await userRow(unnamed.id)).toBeUndefined();
  });

  it("records a materials-open e-mail that could not be sent, after the signature that stands", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true });
    smtp.refuse(true);
    try {
      const result = await setNdaSigned({ actor: admin, email: investor.email, state: true });
      expect(result.ok).toBe(true);
    } finally {
      smtp.refuse(false);
    }
    expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1 });
    const { events } = await listAuditEvents({ limit: 2 });
    expect(events.map((event) => event.action)).toEqual(["investor.materials_mailed", "nda.signed.changed"]);
    expect(JSON.parse(events[0].details!)).toEqual({ mailed: false });
    expect(events[0]).toMatchObject({ actorEmail: admin.email, targetId: investor.id });
  });

  it("a signature stands, mailed, when only the row of its e-mail's outcome is refused", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const investor = await createUser({ named: true });
    await refuseAuditRows("investor.materials_mailed");
    try {
      expect(await setNdaSigned({ actor: admin, email: investor.email, state: true })).toMatchObject({ ok: true });
    } finally {
      await acceptAuditRows();
    }
    expect(await userRow(investor.id)).toMatchObject({ is_nda_sent: 1, is_nda_signed: 1 });
    await smtp.mailTo(investor.email, /materials are open/);
    const { events } = await listAuditEvents({ limit: 1 });
    expect(events[0]).toMatchObject({ action: "nda.signed.changed", targetId: investor.id });
  });

  it("are not stored at all for the library, the administrators and the accounts either", async () => {
    const admin = await createUser({ named: true, role: "administrator" });
    const other = await createUser({ named: true, role: "administrator" });
    const reader = await createUser({ signed: true, fullName: "Ada Reader", address: "1 Main St" });
    const unverified = await createUser({ verified: false });
    const actor = { user: toPublicUser(admin), ip: null };
    const deck = (await listLibrary()).find((document) => document.title === "Slide deck")!;
    const pending = await inviteAdministrator({ actor: admin, email: "pending.invitee@example.com", ip: "10.0.0.1" });
    expect(pending.ok).toBe(true);
    const [invitation] = await getDb().selectFrom("admin_invitations").select("id").execute();
    const acceptedToken = newSecretToken();
    await getDb()
      .insertInto("admin_invitations")
      .values({
        id: randomUUID(),
        token_hash: hashSecretToken(acceptedToken),
        email: "accepting.invitee@example.com",
        invited_by: admin.id,
        created_at: now(),
        expires_at: now() + 60_000,
      })
      .execute();
    const verifyToken = await createOneTimeToken(unverified.id, "verify");
    const pdf = await storedPdf();
    const changes: Change[] = [
      {
        name: "new document",
        run: () =>
          createDocument(
            { title: "Term sheet", description: "", kind: "pdf", audience: "signed", chosenUserIds: [], upload: pdf },
            actor,
          ),
        auditAction: "material.uploaded",
      },
      { name: "new version", run: () => addVersion(deck.id, "pdf", pdf, actor), auditAction: "material.replaced" },
      { name: "unpublish", run: () => setPublished(deck.id, false, actor), auditAction: "material.unpublished" },
      {
        name: "edit",
        run: () => editDocument(deck.id, { title: "Deck", description: "New" }, actor),
        auditAction: "material.edited",
      },
      { name: "move", run: () => moveDocument(deck.id, "down", actor), auditAction: "material.moved" },
      {
        name: "audience",
        run: () => setAudience(deck.id, "chosen", [reader.id], actor),
        auditAction: "material.audience_changed",
      },
      {
        name: "opening",
        run: () => recordOpening(toPublicUser(reader), deck, "10.0.0.2"),
        auditAction: "material.opened",
      },
      {
        name: "invitation",
        run: () => inviteAdministrator({ actor: admin, email: "new.invitee@example.com", ip: "10.0.0.1" }),
        auditAction: "admin.invited",
      },
      {
        name: "withdrawn invitation",
        run: () => revokeInvitation({ actor: admin, id: invitation.id, ip: "10.0.0.1" }),
        auditAction: "admin.invitation_revoked",
      },
      {
        name: "accepted invitation",
        run: () => acceptInvitation({ token: acceptedToken, password: "a long passphrase 42", ip: "10.0.0.3" }),
        auditAction: "admin.invitation_accepted",
      },
      {
        name: "administrator removed",
        run: () => removeAdministrator({ actor: admin, id: other.id, ip: "10.0.0.1" }),
        auditAction: "admin.removed",
      },
      {
        name: "sign-up",
        run: () =>
          registerAccount({ email: "new.investor@example.com", password: "a long passphrase 42", ip: "10.0.0.4" }),
        auditAction: "account.registered",
      },
      {
        name: "sign-in",
        run: () => recordSignIn({ user: reader, method: "password", via: "web", ip: "10.0.0.5" }),
        auditAction: "login.succeeded",
      },
      {
        name: "create-admin",
        run: () => createOrPromoteAdministrator({ email: "cli.admin@example.com", password: "a long passphrase 42" }),
        auditAction: "admin.created",
      },
      { name: "verification", run: () => verifyEmail(verifyToken), auditAction: "account.verified" },
    ];
    const before = await storedState();

    await refuseAuditRows();
    try {
      for (const change of changes) {
        await expect(change.run(), change.name).rejects.toThrow(/audit row refused/);
      }
    } finally {
      await acceptAuditRows();
    }
    expect(await storedState()).toEqual(before);

    for (const change of changes) {
      const rows = await auditRowCount();
      const result = await change.run();
      if (typeof result === "object" && result !== null && "ok" in result) expect(result.ok, change.name).toBe(true);
      const { events } = await listAuditEvents({ limit: 1 });
      expect([(await auditRowCount()) - rows, events[0].action], change.name).toEqual([1, change.auditAction]);
    }
  });
});

/** A PDF's bytes stored as a blob, as an upload leaves them before it becomes a version. */
async function storedPdf() {
  const bytes = fs.readFileSync("private/download.pdf");
  const blob = await storeBlob(
    (async function* () {
      yield bytes;
    })(),
    { limitFor: () => bytes.byteLength },
  );
  return {
    blobId: blob.id,
    fileName: "term-sheet.pdf",
    contentType: "application/pdf",
    size: blob.size,
    sha256: blob.sha256,
  };
}

/** What the changes above could touch, as stored: equal before and after refused changes. */
async function storedState() {
  const db = getDb();
  return {
    users: await db.selectFrom("users").selectAll().orderBy("id").execute(),
    tokens: await db.selectFrom("one_time_tokens").selectAll().orderBy("token_hash").execute(),
    blobs: await db.selectFrom("blobs").selectAll().orderBy("id").execute(),
    versions: await db.selectFrom("document_versions").selectAll().orderBy("id").execute(),
    documents: await db.selectFrom("documents").selectAll().orderBy("id").execute(),
    audience: await db.selectFrom("document_audience").selectAll().orderBy("user_id").execute(),
    opens: await db.selectFrom("document_opens").selectAll().orderBy("id").execute(),
    invitations: await db.selectFrom("admin_invitations").selectAll().orderBy("id").execute(),
    auditRows: await auditRowCount(),
  };
}
