/**
 * No account enumeration by the clock: the API's sign-up, wrong-password login and forgot-password
 * answer a registered address and an unknown one with the same status, body and time.
 *
 * Timing comparisons run in their own vitest group, after every other test file and one file at a
 * time (vitest.config.ts): a test file running beside them slows one call of a pair at random, which
 * once pushed a sound login comparison past its bound.
 */
import { settleAccountMail } from "~/models/account/account-mail.server";
import { hashPassword, verifyDummyPassword, verifyPassword } from "~/models/account/password.server";
import * as forgotRoute from "~/routes/api.auth.forgot-password.$email";
import * as loginRoute from "~/routes/api.auth.login";
import * as registerRoute from "~/routes/api.auth.register";
import { getDb } from "~/server/db.server";
import { addressSequence, callRoute, type RouteModule } from "../support/api-routes";
import { createUser, enrolTotp } from "../support/factories";
import { startSmtpCatcher, type SmtpCatcher } from "../support/smtp-catcher";
import { useFreshDatabase } from "../support/test-database";

const PASSWORD = "correct horse battery";
const WRONG_PASSWORD = "wrong password here";
const ROUNDS = 15;
// A wrong-password login is not padded to a fixed time like sign-up and reset: its two sides are one
// argon2 check each (~30 ms), so its pairs vary more; 41 of them keep the median ratio steady.
const LOGIN_ROUNDS = 41;

let smtp: SmtpCatcher;
let database: Awaited<ReturnType<typeof useFreshDatabase>>;
const knownAddresses: string[] = [];

const freshIp = addressSequence("10.7");
let emailCounter = 0;
const unknownEmail = () => `enum-none.${++emailCounter}@example.com`;

async function call(route: RouteModule, path: string, init: { json?: unknown; params?: Record<string, string> }) {
  const response = await callRoute(route, { path, ip: freshIp(), ...init });
  return { status: response.status, body: (await response.json()) as unknown };
}
const register = (email: string) =>
  call(registerRoute as unknown as RouteModule, "/api/auth/register", { json: { email, password: PASSWORD } });
const login = (email: string) =>
  call(loginRoute as unknown as RouteModule, "/api/auth/login", { json: { email, password: WRONG_PASSWORD } });
const forgotPassword = (email: string) =>
  call(forgotRoute as unknown as RouteModule, `/api/auth/forgot-password/${email}`, { params: { email } });

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  database = await useFreshDatabase({ SMTP_URL: smtp.url });
  for (let i = 0; i <= ROUNDS; i++) {
    knownAddresses.push((await createUser({ email: `enum.${i}@example.com`, password: PASSWORD })).email);
  }
});
afterAll(async () => {
  await settleAccountMail();
  await database.cleanup();
  await smtp.close();
});

type Answer = { status: number; body: unknown };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(run: () => Promise<Answer>) {
  const started = performance.now();
  const answer = await run();
  return { ms: performance.now() - started, ...answer };
}

async function compare(known: (i: number) => Promise<Answer>, unknown: () => Promise<Answer>, rounds = ROUNDS) {
  type Timed = Awaited<ReturnType<typeof timed>>;
  const knownResults: Timed[] = [];
  const unknownResults: Timed[] = [];
  // One call each first, so neither side pays a first-use cost (e.g. building the dummy hash) in the sample.
  await known(rounds);
  await unknown();
  for (let i = 0; i < rounds; i++) {
    // Pairs taken back to back, in alternating order, so that load on the machine and
    // any first-or-second effect hit both sides alike.
    if (i % 2 === 0) {
      knownResults.push(await timed(() => known(i)));
      unknownResults.push(await timed(unknown));
    } else {
      unknownResults.push(await timed(unknown));
      knownResults.push(await timed(() => known(i)));
    }
  }
  const answers = new Set([...knownResults, ...unknownResults].map((r) => JSON.stringify([r.status, r.body])));
  expect([...answers]).toHaveLength(1);
  // The median of the pairs' ratios: a burst of load slows both calls of a pair, not one side's median.
  const ratio = median(knownResults.map((result, i) => result.ms / unknownResults[i].ms));
  const medians = [knownResults, unknownResults].map((results) => median(results.map((r) => r.ms)).toFixed(1));
  const detail = `known/unknown ratio ${ratio.toFixed(2)}; medians ${medians[0]} ms and ${medians[1]} ms`;
  expect(ratio, detail).toBeGreaterThan(0.8);
  expect(ratio, detail).toBeLessThan(1.25);
}

/** The i-th registered address, reused in turn: its second or third failure takes its first's path (the lock comes at 20). */
const knownAddress = (i: number) => knownAddresses[i % knownAddresses.length];

it("sign-up: same status, body and time for registered and new addresses", async () => {
  await compare(
    (i) => register(knownAddress(i)),
    () => register(unknownEmail()),
  );
});

it("login with a wrong password: same status, body and time for registered and unknown addresses", async () => {
  await compare(
    (i) => login(knownAddress(i)),
    () => login(unknownEmail()),
    LOGIN_ROUNDS,
  );
});

it("login with a wrong password: an account with a second factor answers as an unknown address does, as fast", async () => {
  for (const email of knownAddresses) {
    const { id } = await getDb().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    await enrolTotp(id);
  }
  await compare(
    (i) => login(knownAddress(i)),
    () => login(unknownEmail()),
    LOGIN_ROUNDS,
  );
});

it("forgot password: same status, body and time for registered and unknown addresses", async () => {
  await compare(
    (i) => forgotPassword(knownAddress(i)),
    () => forgotPassword(unknownEmail()),
  );
});

it("the dummy password check costs about what a real check costs", async () => {
  const hash = await hashPassword("timing password");
  await verifyDummyPassword("warm up");
  const real: number[] = [];
  const dummy: number[] = [];
  const time = async (samples: number[], run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  };
  // Interleaved, so that load on the machine hits both alike. Compared by each side's fastest check: load
  // only ever adds time, so the fastest is the nearest to the work itself. A check's time is bimodal on some
  // machines (24-26 ms or 30-32 ms, on both sides alike), and the medians of fifteen, landing in either mode,
  // once put the ratio at 1.39; the means, with one check slowed to twice its time, at 0.76.
  for (let i = 0; i < 15; i++) {
    await time(real, () => verifyPassword(hash, "wrong"));
    await time(dummy, () => verifyDummyPassword("wrong"));
  }
  const ratio = Math.min(...dummy) / Math.min(...real);
  expect(ratio).toBeGreaterThan(0.8);
  expect(ratio).toBeLessThan(1.25);
});
