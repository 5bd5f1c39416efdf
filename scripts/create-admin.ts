/**
 * npm run create-admin -- <email>
 *
 * Creates a verified administrator, or promotes the account that has the
 * address (setting the given password, ending its sessions and API tokens,
 * removing its second factor, and e-mailing it). The password comes from
 * ADMIN_PASSWORD or, in a terminal, a hidden prompt asked twice, again after a
 * refusal, at most PROMPT_TRIES times. Uses the app's own modules and
 * configuration (.env, DATABASE_PATH, SMTP_URL), and migrates the database
 * first. No default administrator exists.
 */
import "dotenv/config";
import { validationMessages } from "../app/content/validation-messages";
import { settleAccountMail } from "../app/models/account/account-mail.server";
import { emailSchema, passwordSchema } from "../app/models/account/account-schemas.server";
import { createOrPromoteAdministrator } from "../app/models/administrators/create-admin.server";
import { closeDatabase, migrateDatabase } from "../app/server/db.server";

// Whatever this writes (the database, a key, a copy) is its user's alone.
process.umask(0o077);

/** No secret is made here: the administrator sets up the second factor themselves, in their own app. */
const SECOND_FACTOR_NOTE =
  "At the first login, after the password, the administrator sets up a second factor (an authenticator app) before anything else.";

/** A terminal gets this many tries; then the script gives up, so that input piped into it never loops. */
const PROMPT_TRIES = 3;

const USAGE = "Usage: npm run create-admin -- <email>   (password from ADMIN_PASSWORD, or asked for in a terminal)";

async function main(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0].startsWith("-")) {
    console.error(USAGE);
    return 2;
  }
  const email = emailSchema.safeParse(args[0]);
  if (!email.success) {
    console.error(validationMessages.emailInvalid);
    return 1;
  }

  const password = await readPassword();
  if (password === null) return 1;

  await migrateDatabase();
  try {
    const result = await createOrPromoteAdministrator({ email: email.data, password });
    console.log(
      result.created
        ? `Created the administrator ${result.user.email}.`
        : `${result.user.email} is now an administrator; the new password is set, their sessions and API tokens are ended, any second factor is removed, and an e-mail tells them so.`,
    );
    console.log(SECOND_FACTOR_NOTE);
    // The e-mail goes out in the background, as the app's account e-mails do: exiting now would drop it.
    await settleAccountMail();
    return 0;
  } finally {
    await closeDatabase();
  }
}

/** ADMIN_PASSWORD, or a hidden prompt (twice); null after telling the operator what is wrong. */
async function readPassword(): Promise<string | null> {
  const fromEnv = process.env.ADMIN_PASSWORD;
  // Nobody is there to answer a second question: a refused ADMIN_PASSWORD ends the run.
  if (fromEnv) return checkPolicy(fromEnv);
  if (!process.stdin.isTTY) {
    console.error("Set ADMIN_PASSWORD, or run this in a terminal to be asked for the password.");
    return null;
  }
  for (let attempt = 1; attempt <= PROMPT_TRIES; attempt++) {
    const password = await promptPasswordTwice();
    if (password !== null) return password;
    if (attempt < PROMPT_TRIES) console.error(`Try again (${attempt + 1} of ${PROMPT_TRIES}).`);
  }
  console.error(`No password was accepted in ${PROMPT_TRIES} tries; nothing was changed.`);
  return null;
}

/** One try: a password the policy accepts, typed the same twice; null after saying why not. */
async function promptPasswordTwice(): Promise<string | null> {
  const accepted = checkPolicy(await promptHidden("Password for the administrator: "));
  if (accepted === null) return null;
  const again = await promptHidden("The same password again: ");
  if (again !== accepted) {
    console.error(validationMessages.passwordsDoNotMatch);
    return null;
  }
  return accepted;
}

/** The password policy (length, characters, not a common one), before anything is stored. */
function checkPolicy(password: string): string | null {
  const parsed = passwordSchema.safeParse(password);
  if (parsed.success) return parsed.data;
  console.error(parsed.error.issues[0]?.message ?? validationMessages.passwordEmpty);
  return null;
}

/** Reads one line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  const input = process.stdin;
  // Echo goes off before the question shows, so nothing typed after it can appear.
  input.setRawMode(true);
  input.setEncoding("utf8");
  input.resume();
  process.stdout.write(question);
  return new Promise((resolve) => {
    let typed = "";
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n" || char === "\u0004") {
          input.off("data", onData);
          input.setRawMode(false);
          input.pause();
          process.stdout.write("\n");
          resolve(typed);
          return;
        }
        if (char === "\u0003") {
          input.setRawMode(false);
          process.stdout.write("\n");
          process.exit(130);
        }
        if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    input.on("data", onData);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`create-admin failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
