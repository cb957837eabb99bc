/**
 * Typed fetch client of the public widget API (its shapes are in shared/public.ts). Types only come
 * from shared/: zod never reaches the bundle.
 */
import type {
  PublicBooking,
  PublicBookingInput,
  PublicChangeInput,
  PublicOffer,
  PublicPay,
  PublicPaymentPolicy,
  PublicProfile,
  PublicReservation,
  PublicService,
  PublicSlotDay,
} from "../shared/public.js";

export type {
  PublicBooking,
  PublicBookingInput,
  PublicChangeInput,
  PublicOffer,
  PublicPay,
  PublicPaymentPolicy,
  PublicProfile,
  PublicReservation,
  PublicService,
  PublicSlotDay,
};

/** One bad field of a 400, as the API names it ("guest.email"). */
export interface FieldError {
  path: string;
  message: string;
}

/** A problem+json answer (RFC 9457), with the 409's `alternatives` when a time was taken meanwhile. */
export class PublicApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly detail: string | undefined,
    readonly alternatives: string[] = [],
    readonly errors: FieldError[] = [],
  ) {
    super(detail ?? `HTTP ${status}`);
    this.name = "PublicApiError";
  }

  get timeTaken(): boolean {
    return this.status === 409 && this.code === "time_no_longer_available";
  }
}

/** How many days the booking page's first look ahead scans for the first date with a free time. */
export const SCAN_DAYS = 14;

export interface SlotsQuery {
  /** undefined: from the first day bookable online */
  date?: string | undefined;
  pax: number;
  days?: number;
  serviceId?: number;
}

export class PublicApi {
  private readonly base: string;
  /** the guest's language: the restaurant's own texts come in it where it wrote them */
  locale: string | undefined;

  /** `origin`: where the Worker answers (no path); `publicKey`: the restaurant's public key. */
  constructor(origin: string, publicKey: string) {
    this.base = `${origin.replace(/\/+$/, "")}/api/v2/public/${encodeURIComponent(publicKey)}`;
  }

  private get lang() {
    return this.locale ? `locale=${encodeURIComponent(this.locale)}` : "";
  }

  profile(signal?: AbortSignal): Promise<PublicProfile> {
    return this.one<PublicProfile>(this.lang && `?${this.lang}`, { signal });
  }

  services(signal?: AbortSignal): Promise<PublicService[]> {
    return this.list<PublicService>(`/services${this.lang && `?${this.lang}`}`, { signal });
  }

  slots({ date, pax, days = 1, serviceId }: SlotsQuery, signal?: AbortSignal): Promise<PublicSlotDay[]> {
    const q = new URLSearchParams(date ? { date } : {});
    q.set("pax", String(pax));
    q.set("days", String(days));
    if (serviceId) q.set("service_id", String(serviceId));
    if (this.locale) q.set("locale", this.locale);
    return this.list<PublicSlotDay>(`/slots?${q}`, { signal });
  }

  private firstDays: { pax: number; days: Promise<PublicSlotDay[]> } | undefined;

  /**
   * Asks now for `days` days of times for the party from the first day bookable online, which
   * needs no profile: the element asks it beside the profile, and the booking page takes it.
   */
  prefetchFirstDays(pax: number, days: number): void {
    const asked = this.slots({ pax, days });
    asked.catch(() => {}); // a failure is the booking page's to see, when it takes the answer
    this.firstDays = { pax, days: asked };
  }

  /** The prefetched first days for this party, once; undefined when none were asked for it. */
  takeFirstDays(pax: number): Promise<PublicSlotDay[]> | undefined {
    const first = this.firstDays;
    this.firstDays = undefined;
    return first?.pax === pax ? first.days : undefined;
  }

  create(input: PublicBookingInput, signal?: AbortSignal): Promise<PublicBooking> {
    return this.one<PublicBooking>("/reservations", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(input),
      signal,
    });
  }

  /** What the payment step needs (404 once nothing is owed). */
  pay(token: string, signal?: AbortSignal): Promise<PublicPay> {
    return this.one<PublicPay>(`/pay/${encodeURIComponent(token)}`, { signal });
  }

  reservation(token: string, signal?: AbortSignal): Promise<PublicReservation> {
    return this.one<PublicReservation>(`/manage/${encodeURIComponent(token)}`, { signal });
  }

  /** Moves the reservation; 409 (PublicApiError.timeTaken) with alternatives when the new time is gone. */
  change(token: string, input: PublicChangeInput, signal?: AbortSignal): Promise<PublicReservation> {
    return this.one<PublicReservation>(`/manage/${encodeURIComponent(token)}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(input),
      signal,
    });
  }

  cancel(token: string, signal?: AbortSignal): Promise<PublicReservation> {
    return this.one<PublicReservation>(`/manage/${encodeURIComponent(token)}`, { method: "DELETE", signal });
  }

  /** The reservation as a calendar entry (.ics): a plain link, so the browser hands it to the calendar. */
  calendarUrl(token: string): string {
    return `${this.base}/manage/${encodeURIComponent(token)}/calendar.ics`;
  }

  offer(token: string, signal?: AbortSignal): Promise<PublicOffer> {
    return this.one<PublicOffer>(`/offers/${encodeURIComponent(token)}`, { signal });
  }

  answerOffer(token: string, answer: "claim" | "decline", signal?: AbortSignal): Promise<PublicOffer> {
    return this.one<PublicOffer>(`/offers/${encodeURIComponent(token)}/${answer}`, {
      method: "POST",
      signal,
    });
  }

  private async one<T>(path: string, init: RequestInit): Promise<T> {
    const [first] = await this.list<T>(path, init);
    if (first === undefined) throw new PublicApiError(500, undefined, "empty answer");
    return first;
  }

  private async list<T>(path: string, init: RequestInit): Promise<T[]> {
    const res = await fetch(this.base + path, {
      ...init,
      headers: { Accept: "application/json", ...init.headers },
    });
    const body = (await res.json().catch(() => undefined)) as
      | {
          data?: T[];
          code?: string;
          detail?: string;
          title?: string;
          alternatives?: string[];
          errors?: FieldError[];
        }
      | undefined;
    if (!res.ok)
      throw new PublicApiError(
        res.status,
        body?.code,
        body?.detail ?? body?.title,
        body?.alternatives ?? [],
        body?.errors ?? [],
      );
    return body?.data ?? [];
  }
}
