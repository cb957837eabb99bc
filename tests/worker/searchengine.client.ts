/**
 * A scripted client that replays the flows of Google's booking-server test client (maps-booking
 * testclient: health check, availability of many slots from the feed, booking, the same booking
 * again, list, status, rescheduling, cancelling all) against the booking server, and reports
 * every check as it goes, as that tool does.
 */
import { partner } from "./searchengine.fixtures";

export interface FeedSlot {
  merchant_id: string;
  service_id: string;
  start_sec: number;
  duration_sec: number;
  spots_open: number;
  resources: { party_size: number };
}

export interface Report {
  passed: string[];
  failed: string[];
}

export class BookingServerTestClient {
  readonly report: Report = { passed: [], failed: [] };
  readonly bookings: any[] = [];
  private n = 0;

  constructor(
    readonly userId: string,
    readonly user = {
      given_name: "Test",
      family_name: "Client",
      email: "test.client@example.com",
      telephone: "+15555550100",
    },
  ) {}

  private check(what: string, ok: boolean, detail: unknown = "") {
    (ok ? this.report.passed : this.report.failed).push(
      ok ? what : `${what}: ${JSON.stringify(detail).slice(0, 300)}`,
    );
    return ok;
  }

  private async rpc(method: string, body: unknown) {
    const res = await partner(`/v3/${method}`, body);
    this.check(`${method} answers 200`, res.status === 200, res.text);
    return res.json;
  }

  async healthCheck() {
    const res = await partner("/v3/HealthCheck");
    this.check("HealthCheck answers 200", res.status === 200, res.status);
  }

  /** The availability test: every slot of the feed asked at once; the answers agree with spots_open. */
  async availability(slots: FeedSlot[]) {
    const byMerchant = new Map<string, FeedSlot[]>();
    for (const s of slots) byMerchant.set(s.merchant_id, [...(byMerchant.get(s.merchant_id) ?? []), s]);
    for (const [merchant_id, list] of byMerchant) {
      const res = await this.rpc("BatchAvailabilityLookup", {
        merchant_id,
        slot_time: list.map((s) => ({
          service_id: s.service_id,
          start_sec: String(s.start_sec),
          duration_sec: String(s.duration_sec),
          resource_ids: s.resources,
        })),
      });
      const answers = res?.slot_time_availability ?? [];
      this.check(
        `BatchAvailabilityLookup answers each of ${list.length} slots`,
        answers.length === list.length,
        answers.length,
      );
      for (const [i, s] of list.entries())
        this.check(
          `slot ${s.start_sec} for ${s.resources.party_size} as the feed says`,
          answers[i]?.available === s.spots_open > 0,
          answers[i],
        );
    }
  }

  private request(s: FeedSlot, token: string) {
    return {
      slot: {
        merchant_id: s.merchant_id,
        service_id: s.service_id,
        start_sec: String(s.start_sec),
        duration_sec: String(s.duration_sec),
        resources: s.resources,
      },
      user_information: { user_id: this.userId, ...this.user },
      payment_information: { prepayment_status: "PREPAYMENT_NOT_PROVIDED" },
      idempotency_token: token,
    };
  }

  /** The booking test: each slot booked, then the same request again answers the same booking. */
  async booking(slots: FeedSlot[]) {
    for (const s of slots) {
      const token = `${this.userId}-${this.n++}`;
      const first = await this.rpc("CreateBooking", this.request(s, token));
      if (
        !this.check(
          `CreateBooking ${s.start_sec} is CONFIRMED`,
          first?.booking?.status === "CONFIRMED",
          first,
        )
      )
        continue;
      this.check(
        "the booking is the slot asked for",
        first.booking.slot.start_sec === s.start_sec &&
          first.booking.slot.resources.party_size === s.resources.party_size,
        first.booking.slot,
      );
      const again = await this.rpc("CreateBooking", this.request(s, token));
      this.check(
        "the same idempotency_token answers the same booking",
        JSON.stringify(again) === JSON.stringify(first),
        again,
      );
      this.bookings.push(first.booking);
    }
  }

  async listBookings() {
    const res = await this.rpc("ListBookings", { user_id: this.userId });
    const ids = (res?.bookings ?? []).map((b: any) => b.booking_id);
    this.check(
      "ListBookings lists every booking made",
      this.bookings.every((b) => ids.includes(b.booking_id)) && ids.length === this.bookings.length,
      ids,
    );
  }

  async bookingStatus(expected: string) {
    for (const b of this.bookings) {
      const res = await this.rpc("GetBookingStatus", { booking_id: b.booking_id });
      this.check(`GetBookingStatus ${b.booking_id} is ${expected}`, res?.booking_status === expected, res);
    }
  }

  /** The rescheduling test: the first booking moves to `to`. */
  async rescheduling(to: FeedSlot) {
    const b = this.bookings[0];
    const res = await this.rpc("UpdateBooking", {
      booking: {
        booking_id: b.booking_id,
        slot: { start_sec: String(to.start_sec), duration_sec: String(to.duration_sec) },
      },
    });
    if (this.check("UpdateBooking moves the booking", res?.booking?.slot?.start_sec === to.start_sec, res))
      this.bookings[0] = res.booking;
  }

  async cancelAll() {
    for (const b of this.bookings) {
      const res = await this.rpc("UpdateBooking", {
        booking: { booking_id: b.booking_id, status: "CANCELED" },
      });
      this.check(`UpdateBooking cancels ${b.booking_id}`, res?.booking?.status === "CANCELED", res);
    }
  }
}
