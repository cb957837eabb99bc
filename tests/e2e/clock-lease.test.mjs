// The lease of the browser suites' shared Worker (tests/support/shared-worker.mjs), on its own:
// holders at one clock side by side, another clock only once they are done, a holder that moves
// the clock alone (or holds the Worker alone from the start), and the Worker's clock pinned before
// each is let in.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ClockLease } from "../support/shared-worker.mjs";

/** A lease whose Worker is a log of pins; `settle()` lets its promises run. */
function lease() {
  const pins = [];
  const l = new ClockLease(async (at) => {
    pins.push(at);
  });
  return { l, pins, settle: () => new Promise((r) => setTimeout(r, 20)) };
}

describe("the clock lease of the shared Worker", () => {
  it("lets holders at one clock in together, pinning once, and another clock only after them", async () => {
    const { l, pins, settle } = lease();
    const a = l.hold("2026-12-31T22:59:00Z");
    const b = l.hold("2026-12-31T22:59:00Z");
    await Promise.all([a.granted, b.granted]);
    const c = l.hold("");
    let cIn = false;
    c.granted.then(() => (cIn = true));
    await settle();
    assert.deepEqual(pins, ["2026-12-31T22:59:00Z"]);
    assert.equal(cIn, false);
    l.release(a.id);
    await settle();
    assert.equal(cIn, false, "one holder at the instant is still in");
    l.release(b.id);
    await c.granted;
    assert.deepEqual(pins, ["2026-12-31T22:59:00Z", null]);
  });

  it("lets a later hold at the clock the Worker stands at in ahead of one at another clock", async () => {
    const { l, pins, settle } = lease();
    const a = l.hold("+3600000");
    await a.granted;
    const other = l.hold("");
    const same = l.hold("+3600000");
    let otherIn = false;
    other.granted.then(() => (otherIn = true));
    await same.granted;
    l.release(a.id);
    l.release(same.id);
    await settle();
    assert.equal(otherIn, false, "the grace after the last holder at +3600000");
    await other.granted;
    assert.deepEqual(pins, ["+3600000", null]);
  });

  it("lets a holder move the clock once it is alone, holds others back meanwhile, and gives the clock back", async () => {
    const { l, pins, settle } = lease();
    const a = l.hold("");
    const b = l.hold("");
    await Promise.all([a.granted, b.granted]);
    let moved = false;
    const move = l.move(a.id, "2027-03-28T01:01:00Z").then(() => (moved = true));
    await settle();
    assert.equal(moved, false, "b holds the Worker at the real clock");
    l.release(b.id);
    await move;
    const c = l.hold("");
    let cIn = false;
    c.granted.then(() => (cIn = true));
    await settle();
    assert.equal(cIn, false, "a holds the Worker alone");
    await l.move(a.id, null);
    await c.granted;
    assert.deepEqual(pins, ["2027-03-28T01:01:00Z", null]);
    await assert.rejects(l.move(c.id + 1, "+1"), /no holder/);
  });

  it("lets a hold alone in once no one holds the Worker, lets no one in beside it, and moves the clock at once", async () => {
    const { l, pins, settle } = lease();
    const a = l.hold("");
    await a.granted;
    const alone = l.hold("", true);
    let aloneIn = false;
    alone.granted.then(() => (aloneIn = true));
    await settle();
    assert.equal(aloneIn, false, "a holds the Worker at the real clock");
    l.release(a.id);
    await alone.granted;
    const b = l.hold("");
    let bIn = false;
    b.granted.then(() => (bIn = true));
    // moves and gives back without waiting on anyone, and still holds the Worker alone after
    await l.move(alone.id, "2026-12-31T22:59:00Z");
    await l.move(alone.id, null);
    await settle();
    assert.equal(bIn, false, "the hold alone keeps the Worker after giving the clock back");
    l.release(alone.id);
    await b.granted;
    assert.deepEqual(pins, ["2026-12-31T22:59:00Z", null]);
  });

  it("re-pins the clock for the next holder after one that moved it left without giving it back", async () => {
    const { l, pins } = lease();
    const a = l.hold("");
    await a.granted;
    await l.move(a.id, "+60000");
    l.release(a.id);
    await l.hold("").granted;
    assert.deepEqual(pins, ["+60000", null]);
  });

  it("refuses a hold whose pin fails, and lets the next one in", async () => {
    let fail = true;
    const l = new ClockLease(async () => {
      if (fail) {
        fail = false;
        throw new Error("the door said no");
      }
    });
    await assert.rejects(l.hold("bad").granted, /the door said no/);
    await l.hold("").granted;
  });
});
