/** The search engine's terms and ours (worker/searchengine/google.ts), pure: no Worker, no D1. */
import { describe, expect, it } from "vitest";
import { RESERVATION_STATUSES } from "../../shared/schemas";
import { localMinutes } from "../../worker/lib/localtime";
import {
  bookingStatus,
  type NotificationSnapshot,
  notificationBody,
  notificationMask,
  slotLocal,
  startSecOf,
} from "../../worker/searchengine/google";

const at = (iso: string) => Date.parse(iso) / 1000;

describe("bookingStatus", () => {
  it("is the map, for every status", () => {
    const map = Object.fromEntries(RESERVATION_STATUSES.map((s) => [s, bookingStatus(s)]));
    expect(map).toEqual({
      WAITING: "PENDING_MERCHANT_CONFIRMATION",
      ACCEPTED: "CONFIRMED",
      CANCELLED: "CANCELED",
      CONFIRMED: "CONFIRMED",
      EXPIRED: "NO_SHOW",
      PREPAY: "PENDING_CLIENT_CONFIRMATION",
      OUTOFORDER: "CANCELED",
      REJECTED: "DECLINED_BY_MERCHANT",
    });
    expect(bookingStatus("EXPIRED", true)).toBe("FAILED");
  });
});

describe("slotLocal and startSecOf", () => {
  it("round-trip a wall-clock time of Rome, winter and summer", () => {
    expect(slotLocal("Europe/Rome", at("2027-01-15T18:00:00Z"))).toMatchObject({
      date: "2027-01-15",
      hour: "19:00:00",
    });
    expect(slotLocal("Europe/Rome", at("2027-07-15T17:00:00Z"))).toMatchObject({
      date: "2027-07-15",
      hour: "19:00:00",
    });
    expect(startSecOf("Europe/Rome", localMinutes("2027-07-15", "19:00"))).toBe(at("2027-07-15T17:00:00Z"));
  });

  it("refuse seconds, and the first pass of a repeated hour; a skipped hour has no instant", () => {
    expect(slotLocal("Europe/Rome", at("2027-01-15T18:00:30Z"))).toBeUndefined();
    expect(slotLocal("Europe/Rome", at("2026-10-25T00:30:00Z"))).toBeUndefined();
    expect(slotLocal("Europe/Rome", at("2026-10-25T01:30:00Z"))).toMatchObject({ hour: "02:30:00" });
    // Every instant of the spring night shows an hour that exists: 01:59 CET, then 03:00 CEST.
    expect(slotLocal("Europe/Rome", at("2027-03-28T00:59:00Z"))).toMatchObject({ hour: "01:59:00" });
    expect(slotLocal("Europe/Rome", at("2027-03-28T01:00:00Z"))).toMatchObject({ hour: "03:00:00" });
  });
});

describe("notifications", () => {
  const snap = (o: Partial<NotificationSnapshot>): NotificationSnapshot => ({
    id: 7,
    propertyId: 1,
    merchantId: "pk_x",
    timezone: "Europe/Rome",
    serviceId: 3,
    startMin: localMinutes("2027-01-15", "20:00"),
    endMin: localMinutes("2027-01-15", "21:00"),
    pax: 2,
    status: "ACCEPTED",
    action: "updated",
    changes: {},
    ...o,
  });

  it("name only what changed as the search engine sees it", () => {
    expect(
      notificationMask(snap({ status: "CANCELLED", changes: { status: ["ACCEPTED", "CANCELLED"] } })),
    ).toEqual(["status"]);
    expect(
      notificationMask(snap({ status: "CONFIRMED", changes: { status: ["ACCEPTED", "CONFIRMED"] } })),
    ).toEqual([]);
    // Moved an hour later, its end with it: the start, not the length.
    expect(
      notificationMask(
        snap({
          changes: {
            start_hour: ["19:00:00", "20:00:00"],
            end_date: ["2027-01-15T20:00:00", "2027-01-15T21:00:00"],
          },
        }),
      ),
    ).toEqual(["startTime"]);
    // Moved a day earlier and made longer.
    expect(
      notificationMask(
        snap({
          changes: {
            start_date: ["2027-01-16", "2027-01-15"],
            end_date: ["2027-01-16T20:30:00", "2027-01-15T21:00:00"],
          },
        }),
      ),
    ).toEqual(["startTime", "duration"]);
    expect(notificationMask(snap({ changes: { pax: [4, 2] } }))).toEqual(["partySize"]);
    expect(
      notificationMask(
        snap({ status: "EXPIRED", action: "expired_unpaid", changes: { status: ["PREPAY", "EXPIRED"] } }),
      ),
    ).toEqual(["status"]);
  });

  it("build the PATCH body with the booking's name, merchant, service and the fields masked", () => {
    const s = snap({ status: "EXPIRED", action: "expired_unpaid" });
    expect(
      notificationBody("p1", s, ["status", "startTime", "duration", "partySize"], "Europe/Rome"),
    ).toEqual({
      name: "partners/p1/bookings/7",
      merchantId: "pk_x",
      serviceId: "3",
      startTime: "2027-01-15T19:00:00Z",
      duration: "3600s",
      partySize: 2,
      status: "FAILED",
    });
    expect(notificationBody("p1", s, ["partySize"], "Europe/Rome")).toEqual({
      name: "partners/p1/bookings/7",
      merchantId: "pk_x",
      serviceId: "3",
      partySize: 2,
    });
  });
});
