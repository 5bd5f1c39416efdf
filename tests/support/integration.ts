/**
 * One way to set up an integration test. Called once at the top of a test file, it registers the
 * file's hooks and gives it, for each test:
 *
 * - a database of its own on the engine under test (an SQLite file in the `suite` project, a database
 *   on the PostgreSQL server in `postgres`), migrated, for the file or for each test (`database: "each"`);
 * - with `mail: true`, the real SMTP catcher, which the app's SMTP_URL points at;
 * - the keys the app is configured with (TEST_KEYS), and any further configuration in `env`;
 * - the clock the models read, frozen at `clockAt` before each test when given, and back on real time
 *   after each test whatever the test did with it;
 * - factories for an investor at each state and an administrator with a second factor.
 *
 * After the file (or each test, with `database: "each"`) the account mail still on its way is
 * settled, the database closed and dropped, and the catcher stopped.
 *
 *     const { smtp, database, investor, administrator } = useIntegration({ mail: true });
 *
 * The older helpers it is built on (test-database.ts, smtp-catcher.ts, factories.ts) stay as they are.
 */
import { resetSessionCookieForTests } from "~/http/auth.server";
import { settleAccountMail } from "~/models/account/account-mail.server";
import { testClock } from "~/server/clock.server";
import { createAdministrator, createInvestor } from "./factories";
import { startSmtpCatcher, type CaughtMail, type SmtpCatcher } from "./smtp-catcher";
import { useFreshDatabase } from "./test-database";
import { TEST_KEYS } from "./test-keys";

export type IntegrationOptions = {
  /** Start the SMTP catcher and point SMTP_URL at it. */
  mail?: boolean;
  /** Further configuration (CONTACT_EMAIL, limits, …), over the defaults test-database.ts sets. */
  env?: Record<string, string>;
  /** A fresh database for each test rather than one for the file. */
  database?: "file" | "each";
  /** Freeze the clock at this time (milliseconds) before each test. */
  clockAt?: number;
};

type FreshDatabase = Awaited<ReturnType<typeof useFreshDatabase>>;

export function useIntegration({ mail = false, env = {}, database = "file", clockAt }: IntegrationOptions = {}) {
  let catcher: SmtpCatcher | undefined;
  let fresh: FreshDatabase | undefined;

  const open = async () => {
    fresh = await useFreshDatabase({ ...(catcher ? { SMTP_URL: catcher.url } : {}), ...env });
    resetSessionCookieForTests();
  };
  const close = async () => {
    await settleAccountMail();
    await fresh?.cleanup();
    fresh = undefined;
  };

  beforeAll(async () => {
    if (mail) catcher = await startSmtpCatcher();
    if (database === "file") await open();
  });
  afterAll(async () => {
    if (database === "file") await close();
    await catcher?.close();
  });
  if (database === "each") {
    beforeEach(open);
    afterEach(close);
  }
  if (clockAt !== undefined) beforeEach(() => testClock.freeze(clockAt));
  afterEach(() => testClock.reset());

  const started = () => {
    if (!catcher) throw new Error("The SMTP catcher runs only with useIntegration({ mail: true })");
    return catcher;
  };
  const opened = () => {
    if (!fresh) throw new Error("The test database is open only inside the file's tests and hooks");
    return fresh;
  };

  /** The catcher, the same object before and after it starts, so a file can take it at its top level. */
  const smtp: SmtpCatcher = {
    get url() {
      return started().url;
    },
    get messages(): CaughtMail[] {
      return started().messages;
    },
    waitFor: (match, timeoutMs) => started().waitFor(match, timeoutMs),
    mailTo: (address, subject, timeoutMs) => started().mailTo(address, subject, timeoutMs),
    refuse: (on) => started().refuse(on),
    close: () => started().close(),
  };

  return {
    smtp,
    database: {
      /** The test's own data folder (uploads, the SQLite file). */
      get dir() {
        return opened().dir;
      },
      /** The engine under test. */
      get engine() {
        return opened().engine;
      },
      /** Drops this database and gives the rest of the file (or the test) a fresh one. */
      async renew() {
        await close();
        await open();
      },
    },
    /** The clock every model reads: freeze, advance, reset. */
    clock: testClock,
    keys: TEST_KEYS,
    /** An investor at a state, with a second factor or not (createInvestor in factories.ts). */
    investor: createInvestor,
    /** An administrator with a second factor unless told otherwise (createAdministrator in factories.ts). */
    administrator: createAdministrator,
  };
}
