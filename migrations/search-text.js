// @ts-check
// What the investor table's search reads: `users.search_text`, the full name and e-mail address
// folded so that a search ignores accents, case and punctuation (docs/requirements.md, "The
// investor table"). Here, beside the migrations, because migration 012 writes it for the users
// already stored and the app (app/models/investors/search-text.server.ts) writes it for every new name or
// address: both must fold alike, and the migrations run as plain JavaScript.
import { sql } from "kysely";

/** Letters that carry no separable accent in Unicode, so NFKD leaves them whole: their plain Latin spelling. */
const UNDECOMPOSED = /** @type {Record<string, string>} */ ({
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ħ: "h",
  ŧ: "t",
  ı: "i",
  ŀ: "l",
  // Greek's final sigma, which toLowerCase writes at the end of a word, searched as any sigma.
  ς: "σ",
});
const UNDECOMPOSED_LETTER = new RegExp(`[${Object.keys(UNDECOMPOSED).join("")}]`, "gu");

/**
 * `text` as the search compares it: lower case, compatibility-decomposed with its accents dropped
 * ("Á" → "a", "ﬁ" → "fi", "ß" → "ss"), and every run of anything but letters and digits one space,
 * with none at either end. Other scripts keep their letters (Greek, Cyrillic, CJK), without accents.
 * @param {string} text
 */
export function foldForSearch(text) {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(UNDECOMPOSED_LETTER, (letter) => UNDECOMPOSED[letter])
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * The `search_text` of a user with this name and address: what every write of `full_name` or
 * `email` stores beside them.
 * @param {{ fullName: string; email: string }} user
 */
export function searchTextFor({ fullName, email }) {
  return [foldForSearch(fullName), foldForSearch(email)].filter(Boolean).join(" ");
}

/** Users read and written at a time by the backfill: few statements, each well within either engine's parameters. */
const BACKFILL_BATCH = 1000;

/**
 * Writes `search_text` for every user, a batch at a time in id order.
 * @param {import("kysely").Kysely<any>} db
 */
export async function backfillSearchText(db) {
  let after = "";
  for (;;) {
    const users = /** @type {{ id: string; full_name: string; email: string }[]} */ (
      await db
        .selectFrom("users")
        .select(["id", "full_name", "email"])
        .where("id", ">", after)
        .orderBy("id")
        .limit(BACKFILL_BATCH)
        .execute()
    );
    if (users.length === 0) return;
    const values = sql.join(
      users.map((user) => sql`(${user.id}, ${searchTextFor({ fullName: user.full_name, email: user.email })})`),
    );
    // One statement a batch, the same on both engines: each row of the batch found by its primary key.
    await sql`with folded (id, search_text) as (values ${values})
      update users set search_text = folded.search_text from folded where users.id = folded.id`.execute(db);
    after = users[users.length - 1].id;
  }
}
