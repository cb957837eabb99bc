/**
 * zod schemas shared by the Worker and the widget: formats, enums and property settings.
 * Plain zod only; the Worker adds OpenAPI metadata on top.
 */
import { z } from "zod";

export const RESERVATION_STATUSES = [
  "WAITING",
  "ACCEPTED",
  "CANCELLED",
  "CONFIRMED",
  "EXPIRED",
  "PREPAY",
  "OUTOFORDER",
  "REJECTED",
] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

export const CHANNELS = ["PLATFORM_BOOK", "PLATFORM_ADMIN", "SEARCHENGINE"] as const;
export type Channel = (typeof CHANNELS)[number];

export const LOCALES = ["en", "it", "fr", "de", "es"] as const;
export type Locale = (typeof LOCALES)[number];

/** What a reservation celebrates. */
export const OCCASIONS = ["birthday", "anniversary", "business", "date", "other"] as const;
export type Occasion = (typeof OCCASIONS)[number];

function isCalendarDate(value: string): boolean {
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A calendar date YYYY-MM-DD (2026-02-30 is refused). */
export const dateString = z
  .string()
  // abort: a malformed date gets one error, not a second "not a calendar date".
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "expected a date YYYY-MM-DD", abort: true })
  .refine(isCalendarDate, "not a calendar date");

/** A wall-clock time HH:MM or HH:MM:SS, normalised to HH:MM:SS. */
export const hourString = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, "expected a time HH:MM:SS")
  .transform((v) => (v.length === 5 ? `${v}:00` : v));

/** Zones found valid so far: building a formatter to ask is what costs, and there are a few hundred zones. */
const knownZones = new Set<string>();

export function isTimeZone(value: string): boolean {
  if (knownZones.has(value)) return true;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
  } catch {
    return false;
  }
  knownZones.add(value);
  return true;
}

/**
 * One line of text (a name, a phone, a city): the C0 control characters but tab are refused, line
 * breaks first among them. Emails, calendar entries and pages print these values on a line of
 * their own, where a CR or LF would start another (a header, a calendar property) and a NUL cuts
 * the value short.
 */
export const ONE_LINE = /^[^\x00-\x08\x0a-\x1f]*$/;
export const ONE_LINE_MESSAGE = "one line only: no line breaks or control characters";
/** Text of several lines (notes, a description): line breaks and tabs, but no other C0 control character. */
export const TEXT = /^[^\x00-\x08\x0b\x0c\x0e-\x1f]*$/;
export const TEXT_MESSAGE = "no control characters other than line breaks and tabs";

/** One line of at most `max` characters, trimmed (checked before trimming: a trailing CR is refused too). */
export const lineField = (max: number) => z.string().regex(ONE_LINE, ONE_LINE_MESSAGE).trim().max(max);
/** Text of several lines, at most `max` characters, trimmed. */
export const textField = (max: number) => z.string().regex(TEXT, TEXT_MESSAGE).trim().max(max);

/** An absolute http(s) URL: javascript:, data: and the like are refused (pages render these). */
export const httpUrl = z
  .string()
  .regex(ONE_LINE, ONE_LINE_MESSAGE)
  .trim()
  .max(2048)
  .url({ abort: true })
  .refine((v) => /^https?:\/\//i.test(v), "expected an http(s) URL");

export const turnTimeSchema = z.object({
  max_pax: z.number().int().min(1).max(1000),
  minutes: z.number().int().min(5).max(1440),
});

/** A restaurant's own texts in one language: each one falls back to the default when absent. */
export const localeTextsSchema = z.object({
  welcome_message: z.string().regex(TEXT, TEXT_MESSAGE).max(2000).optional(),
  /** by service id */
  services: z
    .record(
      z.string().regex(/^\d{1,15}$/, "expected a service id"),
      z.object({
        name: lineField(200).min(1).optional(),
        description: z.string().regex(TEXT, TEXT_MESSAGE).max(2000).optional(),
      }),
    )
    .optional(),
});
export type LocaleTexts = z.infer<typeof localeTextsSchema>;

/** Property settings, every field with its default. */
export const settingsSchema = z.object({
  timezone: z.string().max(64).refine(isTimeZone, "not an IANA time zone").default("UTC"),
  locale: z.enum(LOCALES).default("en"),
  average_stay: z.number().int().min(5).max(1440).default(60),
  // Sorted by max_pax, so "the first rule with pax <= max_pax" does not depend on the caller's order.
  turn_times: z
    .array(turnTimeSchema)
    .max(50)
    .transform((rules) => [...rules].sort((a, b) => a.max_pax - b.max_pax))
    .default([]),
  slot_interval: z.number().int().min(5).max(240).default(15),
  min_notice: z.number().int().min(0).max(525600).default(0),
  max_days_ahead: z.number().int().min(0).max(1095).default(90),
  /** staff (PLATFORM_ADMIN) may book this far ahead; no date ever passes 9999-12-31 */
  max_days_ahead_staff: z.number().int().min(0).max(3650).default(730),
  /**
   * minutes after the start a holding reservation not checked in expires as a no-show (the cron);
   * null: off (the default, for restaurants that do not check guests in)
   */
  no_show_after_minutes: z.number().int().min(1).max(1440).nullable().default(null),
  cancel_notice: z.number().int().min(0).max(525600).default(0),
  max_online_pax: z.number().int().min(1).max(1000).default(10),
  // Active future online bookings (and waiting-list entries) one email, and one phone, may hold.
  max_online_bookings_per_guest: z
    .number()
    .int()
    .min(1)
    .max(100)
    .nullable()
    .default(3)
    .describe(
      "online bookings (widget, search engine) one guest may hold at a time: active future bookings and waiting-list entries " +
        "under one email, and under one phone, count separately; null: no limit. Staff bookings neither count nor are limited.",
    ),
  welcome_message: z.string().regex(TEXT, TEXT_MESSAGE).max(2000).nullable().default(null),
  logo_url: httpUrl.nullable().default(null),
  photos: z.array(httpUrl).max(30).default([]),
  accent_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "expected a colour #RRGGBB")
    .nullable()
    .default(null),
  /** the restaurant's texts per language, `{"it": {"welcome_message", "services": {"<id>": {"name", "description"}}}}` */
  translations: z.partialRecord(z.enum(LOCALES), localeTextsSchema).default({}),
  // Messages: the guest's reminder this many hours before (0: none), the restaurant's
  // own email for each online booking and cancellation, emails to guests booked by staff, and how
  // long a waiting-list offer holds.
  reminder_hours: z.number().int().min(0).max(168).default(24),
  notify_restaurant: z.boolean().default(true),
  email_staff_bookings: z.boolean().default(true),
  offer_minutes: z.number().int().min(5).max(1440).default(15),
});
export type Settings = z.infer<typeof settingsSchema>;

/** A partial update of settings: only the fields given change. */
export const settingsPatchSchema = z.object({
  timezone: settingsSchema.shape.timezone.removeDefault().optional(),
  locale: settingsSchema.shape.locale.removeDefault().optional(),
  average_stay: settingsSchema.shape.average_stay.removeDefault().optional(),
  turn_times: settingsSchema.shape.turn_times.removeDefault().optional(),
  slot_interval: settingsSchema.shape.slot_interval.removeDefault().optional(),
  min_notice: settingsSchema.shape.min_notice.removeDefault().optional(),
  max_days_ahead: settingsSchema.shape.max_days_ahead.removeDefault().optional(),
  max_days_ahead_staff: settingsSchema.shape.max_days_ahead_staff.removeDefault().optional(),
  no_show_after_minutes: settingsSchema.shape.no_show_after_minutes.removeDefault().optional(),
  cancel_notice: settingsSchema.shape.cancel_notice.removeDefault().optional(),
  max_online_pax: settingsSchema.shape.max_online_pax.removeDefault().optional(),
  max_online_bookings_per_guest: settingsSchema.shape.max_online_bookings_per_guest
    .removeDefault()
    .optional(),
  welcome_message: settingsSchema.shape.welcome_message.removeDefault().optional(),
  logo_url: settingsSchema.shape.logo_url.removeDefault().optional(),
  photos: settingsSchema.shape.photos.removeDefault().optional(),
  accent_color: settingsSchema.shape.accent_color.removeDefault().optional(),
  translations: settingsSchema.shape.translations.removeDefault().optional(),
  reminder_hours: settingsSchema.shape.reminder_hours.removeDefault().optional(),
  notify_restaurant: settingsSchema.shape.notify_restaurant.removeDefault().optional(),
  email_staff_bookings: settingsSchema.shape.email_staff_bookings.removeDefault().optional(),
  offer_minutes: settingsSchema.shape.offer_minutes.removeDefault().optional(),
});
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

/**
 * Settings resolved per stored object (a request asks for its property's settings many times), and
 * per stored text: every request reads its property's row afresh, and validating the same
 * settings again was a few percent of a booking's work. Frozen, since callers share them.
 */
const resolved = new WeakMap<object, Settings>();
const resolvedTexts = new Map<string, Settings>();
const TEXTS_KEPT = 200;

/** Reads stored settings, filling defaults (and dropping anything no longer valid). Callers share the answer: never change it. */
export function resolveSettings(stored: unknown): Settings {
  if (!stored || typeof stored !== "object") return resolveAfresh(stored);
  let settings = resolved.get(stored);
  if (settings) return settings;
  const text = JSON.stringify(stored);
  settings = resolvedTexts.get(text);
  if (!settings) {
    settings = deepFreeze(resolveAfresh(stored));
    resolvedTexts.set(text, settings);
    if (resolvedTexts.size > TEXTS_KEPT) resolvedTexts.delete(resolvedTexts.keys().next().value!);
  }
  resolved.set(stored, settings);
  return settings;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function resolveAfresh(stored: unknown): Settings {
  const parsed = settingsSchema.safeParse(stored ?? {});
  if (parsed.success) return parsed.data;
  const obj = (stored && typeof stored === "object" ? stored : {}) as Record<string, unknown>;
  const keep: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const field = (settingsSchema.shape as Record<string, z.ZodType>)[k];
    if (field?.safeParse(v).success) keep[k] = v;
  }
  return settingsSchema.parse(keep);
}
