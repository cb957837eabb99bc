/**
 * The integrator API's shapes as the console reads them (a subset: only what the screens show).
 * Types only: nothing here reaches the bundle.
 */
import type { PaymentMode, PaymentPolicy, PaymentStatus } from "../../shared/payment.js";
import type { Channel, Occasion, ReservationStatus } from "../../shared/schemas.js";

export type { Channel, Occasion, PaymentMode, PaymentPolicy, ReservationStatus };

/** A reservation's money (its read-only `payment`); amounts in the currency's minor units. */
export interface ReservationPayment {
  mode: PaymentMode;
  amount: number;
  currency: string;
  status: PaymentStatus;
  amount_refunded: number;
  paid_at: string | null;
  card: { brand: string; last4: string } | null;
  refund_until: string;
  no_show_fee: number | null;
  no_show_charged: number | null;
  failure: string | null;
  refund_pending: number;
  pay_url: string | null;
}

/** The restaurant's Stripe account, as Stripe last said. */
export interface PaymentAccount {
  account_id: string;
  charges_enabled: boolean;
  details_submitted: boolean;
  default_currency: string | null;
}

export type Role = "owner" | "manager" | "host";

/** Who made a change, as the API shows it. */
export interface Actor {
  kind: "staff" | "app" | "guest" | "searchengine" | "system";
  id: number | null;
  name: string | null;
}

/** The signed-in restaurant and who is at the console, as `GET /console/session` answers it. */
export interface Session {
  property: { id: number; name: string; timezone: string; locale: string };
  csrf_token: string;
  locale: string;
  expires_at: string;
  /** the member at the console (null: a platform's session) */
  staff: { id: number; name: string | null; role: Role } | null;
  role: Role;
  actor: Actor;
}

export interface StaffMember {
  id: number;
  name: string | null;
  email: string | null;
  role: Role;
  active: boolean;
  account: boolean;
  pin_set: boolean;
  invite_expires_at: string | null;
  created_at: string;
  last_sign_in_at: string | null;
}

export interface AuditEntry {
  id: number;
  at: string;
  local_at: string;
  actor: Actor;
  action: string;
  subject: { type: string; id: number | null };
  fields: string[];
}

export interface Person {
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
}

export interface ReservationTable {
  id: number;
  name: string;
  room_id: number;
  free: boolean;
}

export interface Reservation {
  id: number;
  pax: number;
  status: ReservationStatus;
  customer:
    | (Person & {
        id: number;
        visits: number;
        allergies?: string | null;
        tags?: string[];
        notes?: string | null;
      })
    | null;
  guest: Person | null;
  service: { id: number; name: string } | null;
  channel: Channel;
  room: { id: number; name: string } | null;
  /** list answers carry start_date, single records start_day */
  start_date?: string;
  start_day?: string;
  start_hour: string;
  end_date: string;
  checkin_date?: string;
  checkout_date?: string;
  notes?: string;
  special_request?: string;
  occasion?: Occasion;
  allergies?: string;
  status_reason?: "no_show" | "unpaid";
  tables: ReservationTable[];
  waiting_list: boolean;
  payment?: ReservationPayment | null;
}

export interface HistoryItem {
  id: number;
  at: string;
  actor: string;
  by?: Actor;
  action: string;
  from_status: string | null;
  to_status: string | null;
  changes: Record<string, [unknown, unknown]>;
}

export interface Message {
  id: number;
  template: string;
  recipient: "guest" | "restaurant";
  to: string;
  state: "pending" | "sent" | "failed" | "cancelled";
  created_at: string;
  sent_at: string | null;
}

export interface Table {
  id: number;
  name: string;
  room_id: number;
  guests_min: number;
  guests_max: number;
  bookable: boolean;
  online: boolean;
  group: boolean;
  table_ids: number[];
}

export interface Room {
  id: number;
  name: string;
  bookable: boolean;
}

/** A room at one time, as `GET /bookings/rooms` answers it. */
export interface BookingRoom extends Room {
  tables: (Table & { free: boolean; closed: boolean; best_choice: boolean })[];
}

export interface Service {
  id: number;
  name: string;
  weekdays: number[];
  start_hour: string;
  end_hour: string;
  online: boolean;
  enabled: boolean;
  pax_min: number;
  pax_max: number | null;
  pacing_interval: number;
  max_covers_per_interval: number | null;
  max_parties_per_interval: number | null;
  payment?: PaymentPolicy | null;
}

export interface Customer extends Person {
  id: number;
  tags: string[];
  allergies: string | null;
  notes: string | null;
  banned: boolean;
  visits: number;
  no_shows: number;
  cancellations: number;
  covers: number;
  last_visit: string | null;
}

export interface Closure {
  id: number;
  start_date: string;
  end_date: string;
  reason?: string | null;
}

export interface Property {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  website: string | null;
  description: string | null;
  public_key: string;
  position: Record<string, unknown>;
  settings: Record<string, unknown> & {
    timezone?: string;
    locale?: string;
    accent_color?: string | null;
    welcome_message?: string | null;
  };
}
