import type * as passwords from "~/models/account/password.server";
import { logIn } from "~/models/account/sign-in.server";
import { addressSequence } from "../support/api-routes";
import { createUser } from "../support/factories";
import { useIntegration } from "../support/integration";

const PASSWORD = "correct horse battery";
const WRONG = "Not-the-passphrase-1";

/**
 * The right password's hash is held open until the test lets it finish, so the failures that lock the
 * address land, every run, between the login's first look at the lock and its look after the hash.
 * Only the timing is steered: the hash itself is the real one.
 */
const gate = vi.hoisted(() => {
  let reached: () => void = () => {};
  let release: () => void = () => {};
  const state = {
    reached: new Promise<void>((resolve) => (reached = resolve)),
    released: new Promise<void>((resolve) => (release = resolve)),
    hold: (password: string) => password === "correct horse battery",
  };
  return { state, reached: () => reached(), release: () => release() };
});

vi.mock("~/models/account/password.server", async (importOriginal) => {
  const real = await importOriginal<typeof passwords>();
  return {
    ...real,
    async verifyPassword(hash: string, password: string) {
      const verdict = await real.verifyPassword(hash, password);
      if (gate.state.hold(password)) {
        gate.reached();
        await gate.state.released;
      }
      return verdict;
    },
  };
});

const freshIp = addressSequence("10.7");

useIntegration({ mail: true });

it("refuses the right password when wrong ones sent with it lock the address while its hash is judged", async () => {
  const user = await createUser({ password: PASSWORD });
  const right = logIn({ email: user.email, password: PASSWORD, ip: freshIp() });
  await gate.state.reached;

  const wrong = await Promise.all(
    Array.from({ length: 20 }, () => logIn({ email: user.email, password: WRONG, ip: freshIp() })),
  );
  expect(wrong.filter((result) => !result.ok && result.code === "locked")).toHaveLength(1);

  gate.release();
  expect(await right).toMatchObject({ ok: false, status: 423, code: "locked" });
});
