import { now } from "~/utils/clock.server";
import { getDb } from "~/utils/db.server";

export type NewContactMessage = {
  firstName: string;
  lastName: string;
  email: string;
  message: string;
  ip: string | null;
};

/** Keeps a visitor's message before it is mailed, so an SMTP failure never loses it. */
export async function saveContactMessage(input: NewContactMessage) {
  const row = await getDb()
    .insertInto("contact_messages")
    .values({
      first_name: input.firstName,
      last_name: input.lastName,
      email: input.email,
      message: input.message,
      ip: input.ip,
      created_at: now(),
      mailed_at: null,
    })
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
  return { id: row.id, createdAt: new Date(row.created_at) };
}

/** Messages whose mailed_at stays null are the ones still to be sent. */
export async function markContactMessageMailed(id: number) {
  await getDb().updateTable("contact_messages").set({ mailed_at: now() }).where("id", "=", id).execute();
}
