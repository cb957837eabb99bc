/** The reservation state machine on its own. */
import { describe, expect, it } from "vitest";
import { RESERVATION_STATUSES, type ReservationStatus } from "../../shared/schemas";
import {
  FINAL,
  HOLDING,
  type MachineState,
  MOVES,
  next,
  parseStatusTarget,
} from "../../worker/reservations/machine";

const state = (status: ReservationStatus, o: Partial<MachineState> = {}): MachineState => ({
  status,
  checkedIn: false,
  checkedOut: false,
  checkinPrev: null,
  checkoutPrev: null,
  ...o,
});

describe("status moves", () => {
  const allowed: [ReservationStatus, ReservationStatus[]][] = [
    ["WAITING", ["ACCEPTED", "CONFIRMED", "REJECTED", "CANCELLED"]],
    ["PREPAY", ["ACCEPTED", "CONFIRMED", "EXPIRED", "CANCELLED"]],
    ["ACCEPTED", ["CONFIRMED", "CANCELLED", "EXPIRED"]],
    ["CONFIRMED", ["CANCELLED", "EXPIRED"]],
    ["OUTOFORDER", ["CANCELLED"]],
    ["CANCELLED", []],
    ["EXPIRED", []],
    ["REJECTED", []],
  ];

  it.each(allowed)("from %s allows exactly %j", (from, targets) => {
    for (const to of RESERVATION_STATUSES) {
      const outcome = next(state(from), { type: "status", to });
      expect(outcome.ok, `${from} -> ${to}`).toBe(targets.includes(to));
      if (!outcome.ok) expect(outcome.reason).toContain(from);
    }
  });

  it("the table of moves is the documented one", () => {
    expect(Object.fromEntries(allowed)).toEqual(MOVES);
  });

  it("says when a move starts or stops holding tables", () => {
    expect(next(state("WAITING"), { type: "status", to: "ACCEPTED" })).toMatchObject({
      ok: true,
      takesTables: true,
      releasesTables: false,
    });
    expect(next(state("PREPAY"), { type: "status", to: "ACCEPTED" })).toMatchObject({
      ok: true,
      takesTables: false,
      releasesTables: false,
    });
    expect(next(state("ACCEPTED"), { type: "status", to: "CANCELLED" })).toMatchObject({
      ok: true,
      takesTables: false,
      releasesTables: true,
    });
    expect(next(state("WAITING"), { type: "status", to: "REJECTED" })).toMatchObject({
      ok: true,
      takesTables: false,
      releasesTables: false,
    });
  });

  it("holding and final statuses are the documented ones", () => {
    expect([...HOLDING].sort()).toEqual(["ACCEPTED", "CONFIRMED", "OUTOFORDER", "PREPAY"]);
    expect([...FINAL].sort()).toEqual(["CANCELLED", "EXPIRED", "REJECTED"]);
  });
});

describe("check-in and check-out", () => {
  it("check-in accepts a waiting reservation and keeps a prepaid, accepted or confirmed one as it is", () => {
    expect(next(state("WAITING"), { type: "checkin" })).toMatchObject({
      ok: true,
      takesTables: true,
      state: { status: "ACCEPTED", checkedIn: true, checkinPrev: "WAITING" },
    });
    expect(next(state("PREPAY"), { type: "checkin" })).toMatchObject({
      ok: true,
      state: { status: "PREPAY" },
    });
    expect(next(state("CONFIRMED"), { type: "checkin" })).toMatchObject({
      ok: true,
      state: { status: "CONFIRMED" },
    });
    for (const s of ["CANCELLED", "EXPIRED", "REJECTED", "OUTOFORDER"] as const)
      expect(next(state(s), { type: "checkin" }).ok).toBe(false);
    expect(next(state("ACCEPTED", { checkedIn: true }), { type: "checkin" }).ok).toBe(false);
  });

  it("check-out needs a check-in and confirms attendance", () => {
    expect(next(state("ACCEPTED"), { type: "checkout" }).ok).toBe(false);
    expect(next(state("ACCEPTED", { checkedIn: true }), { type: "checkout" })).toMatchObject({
      ok: true,
      state: { status: "CONFIRMED", checkedOut: true, checkoutPrev: "ACCEPTED" },
    });
    expect(next(state("CONFIRMED", { checkedIn: true, checkedOut: true }), { type: "checkout" }).ok).toBe(
      false,
    );
  });

  it("undo reverses the last step exactly", () => {
    const checkedIn = next(state("WAITING"), { type: "checkin" });
    if (!checkedIn.ok) throw new Error("check-in refused");
    const undone = next(checkedIn.state, { type: "undo_checkin" });
    expect(undone).toMatchObject({ ok: true, releasesTables: true, state: state("WAITING") });
    const out = next(state("ACCEPTED", { checkedIn: true, checkinPrev: "ACCEPTED" }), { type: "checkout" });
    if (!out.ok) throw new Error("check-out refused");
    expect(next(out.state, { type: "undo_checkout" })).toMatchObject({
      ok: true,
      state: { status: "ACCEPTED", checkedIn: true, checkedOut: false },
    });
  });

  it("undo keeps a status changed after the step: a later confirmation is not undone", () => {
    expect(
      next(state("CONFIRMED", { checkedIn: true, checkinPrev: "ACCEPTED" }), { type: "undo_checkin" }),
    ).toMatchObject({ ok: true, state: { status: "CONFIRMED", checkedIn: false } });
    expect(
      next(state("CONFIRMED", { checkedIn: true, checkinPrev: "WAITING" }), { type: "undo_checkin" }),
    ).toMatchObject({ ok: true, releasesTables: false, state: { status: "CONFIRMED" } });
    expect(
      next(state("ACCEPTED", { checkedIn: true, checkinPrev: "WAITING" }), { type: "undo_checkin" }),
    ).toMatchObject({ ok: true, releasesTables: true, state: { status: "WAITING" } });
  });

  it("refuses an undo with nothing to undo, or out of order", () => {
    expect(next(state("ACCEPTED"), { type: "undo_checkin" }).ok).toBe(false);
    expect(next(state("ACCEPTED"), { type: "undo_checkout" }).ok).toBe(false);
    expect(next(state("CONFIRMED", { checkedIn: true, checkedOut: true }), { type: "undo_checkin" }).ok).toBe(
      false,
    );
    expect(next(state("CANCELLED", { checkedIn: true }), { type: "undo_checkin" }).ok).toBe(false);
  });
});

describe("cancel, expiry and updates", () => {
  it("cancels anything not final", () => {
    for (const s of RESERVATION_STATUSES) expect(next(state(s), { type: "cancel" }).ok).toBe(!FINAL.has(s));
  });
  it("expires unpaid only a PREPAY reservation, or an ACCEPTED one owing its payment", () => {
    for (const s of RESERVATION_STATUSES)
      expect(next(state(s), { type: "expire_unpaid" }).ok).toBe(s === "PREPAY" || s === "ACCEPTED");
  });
  it("expires as a no-show only a party that would arrive and has not checked in", () => {
    for (const s of RESERVATION_STATUSES) {
      const outcome = next(state(s), { type: "expire_no_show" });
      expect(outcome.ok, s).toBe(["PREPAY", "ACCEPTED", "CONFIRMED"].includes(s));
      if (outcome.ok) expect(outcome).toMatchObject({ state: { status: "EXPIRED" }, releasesTables: true });
    }
    expect(
      next(state("ACCEPTED", { checkedIn: true, checkinPrev: "ACCEPTED" }), { type: "expire_no_show" }).ok,
    ).toBe(false);
  });
  it("updates anything not final", () => {
    for (const s of RESERVATION_STATUSES) expect(next(state(s), { type: "update" }).ok).toBe(!FINAL.has(s));
  });
});

describe("parseStatusTarget", () => {
  it("takes any case, and declined means REJECTED", () => {
    expect(parseStatusTarget("accepted")).toBe("ACCEPTED");
    expect(parseStatusTarget("Confirmed")).toBe("CONFIRMED");
    expect(parseStatusTarget("declined")).toBe("REJECTED");
    expect(parseStatusTarget("DECLINED")).toBe("REJECTED");
    expect(parseStatusTarget("maybe")).toBeUndefined();
  });
});
