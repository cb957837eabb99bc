/**
 * The console's API client against a connection that stalls (web-test-runner.config.mjs leaves
 * the first requests of a key unanswered, then relays them to the Worker): a read is asked once
 * more, and a second silence is the server's.
 */
import { expect } from "@open-wc/testing";
import { ApiError, ConsoleApi } from "../../widget/console/api.js";
import { problemText } from "../../widget/console/parts/errors.js";
import { signIn, useConsoleRestaurant } from "./console-env.js";

before(() => useConsoleRestaurant());

/**
 * A client whose first `n` requests stall, waiting `patience` ms for each (long enough that a
 * relayed answer from a busy machine still comes in time); `seen()`: how many requests the relay saw.
 */
function stalling(n: number, patience = 2_000) {
  const key = crypto.randomUUID();
  const seen = async () => ((await (await fetch(`/fixture/stall/${key}`)).json()) as { seen: number }).seen;
  return { api: new ConsoleApi(`/console/stall/${n}/${key}`, patience), seen };
}

describe("the console's API client", () => {
  beforeEach(async () => void (await signIn()));

  it("asks a read once more when its first request gets no answer, and gives what the second got", async () => {
    const { api, seen } = stalling(1);
    const services = await api.services();
    expect(services.map((s) => s.enabled)).to.include(true);
    expect(await seen()).to.equal(2);
  });

  it("says the server could not answer when a read gets no answer twice", async () => {
    const { api, seen } = stalling(2);
    const err = await api.services().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ApiError);
    expect((err as ApiError).status).to.equal(0);
    expect(problemText(err)).to.equal("The server could not answer. Try again.");
    expect(await seen()).to.equal(2);
  });

  it("stops at once, without asking again, when its caller aborts", async () => {
    // patience far beyond the test: only the caller's abort can end the request
    const { api, seen } = stalling(2, 60_000);
    const caller = new AbortController();
    const asked = api.services(caller.signal);
    for (let round = 0; (await seen()) < 1 && round < 300; round++)
      await new Promise((r) => setTimeout(r, 30));
    caller.abort();
    const err = await asked.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as Error).name).to.equal("AbortError");
    expect(await seen()).to.equal(1);
  });
});
