/**
 * The console's API client against a connection that stalls (web-test-runner.config.mjs leaves
 * the first requests of a key unanswered, then relays them to the Worker): a read is asked once
 * more, and a second silence is the server's.
 */
import { expect } from "@open-wc/testing";
import { ApiError, ConsoleApi } from "../../widget/console/api.js";
import { problemText } from "../../widget/console/parts/errors.js";
import { servicesOf } from "../../widget/console/parts/reads.js";
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
    const services = await servicesOf(api);
    expect(services.map((s) => s.enabled)).to.include(true);
    expect(await seen()).to.equal(2);
  });

  it("says the server could not answer when a read gets no answer twice", async () => {
    const { api, seen } = stalling(2);
    const err = await servicesOf(api).then(
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
    const asked = servicesOf(api, caller.signal);
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

describe("the console's typed client (the Worker's OpenAPI document, openapi-fetch)", () => {
  beforeEach(async () => void (await signIn()));

  it("reads the session, then the restaurant's own records through the document's paths", async () => {
    const api = new ConsoleApi();
    const session = await api.currentSession();
    expect(session?.property.id).to.be.a("number");
    const property = await api.one(api.GET("/properties/{id}", { params: { path: { id: api.propertyId } } }));
    expect(property.id).to.equal(session?.property.id);
    const rooms = await api.list(api.GET("/rooms", { params: { query: { limit: 100 } } }));
    expect(rooms.length).to.be.greaterThan(0);
  });

  it("turns a refused write into an ApiError with the problem's status, code and fields", async () => {
    const api = new ConsoleApi();
    await api.currentSession();
    const [room] = await api.list(api.GET("/rooms", { params: { query: { limit: 1 } } }));
    const err = await api
      .done(api.POST("/tables", { body: { name: "", room_id: room!.id, guests_max: 2 } }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).to.be.instanceOf(ApiError);
    const problem = err as ApiError;
    expect([problem.status, problem.code]).to.deep.equal([400, "invalid_input_data"]);
    expect(problem.at("name")).to.be.a("string");
  });

  it("sends the session's CSRF token with a write, and without a session the write is refused", async () => {
    const signedIn = new ConsoleApi();
    await signedIn.currentSession();
    const [closure] = await signedIn.list(
      signedIn.POST("/closures", { body: { start_date: "2031-02-03", end_date: "2031-02-03" } }),
    );
    const unsigned = new ConsoleApi();
    const err = await unsigned
      .done(unsigned.DELETE("/closures/{id}", { params: { path: { id: closure!.id } } }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect([(err as ApiError).status, (err as ApiError).code]).to.deep.equal([403, "csrf_token_invalid"]);
    await signedIn.done(signedIn.DELETE("/closures/{id}", { params: { path: { id: closure!.id } } }));
  });
});
