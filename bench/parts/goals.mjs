// The goals of the run, each with its figure and OK or BELOW: what users feel (a listing right
// after a booking, a booking, a drop, a backlog, the hosted page) and, as plain figures, what must
// not get worse (storage per reservation, slots 100k/1k, delivery p99). Each part's goals are
// printed after it; the whole run's at the end.
import { fmt } from "./report.mjs";

/** The parts' goals: [part, label, figure(report) => {value, text}, target text, ok(value)]. */
const GOALS = [
  [
    "api",
    "no-cache slots / one-record read (throughput)",
    (r) => ratio(r.api.ratios.slotsFreshPerOneRecordThroughput.value),
    ">= 0.8",
    (v) => v >= 0.8,
  ],
  [
    "api",
    "POST /reservations p50 / one-record read p50",
    (r) => ratio(r.api.routes.createThenDelete.post.p50 / r.api.routes.property.p50),
    "<= 3",
    (v) => v <= 3,
  ],
  [
    "drop",
    "drop 500 attempts / 20 tables: created",
    (r) => count(r.drop.created),
    "exactly 20",
    (v) => v === 20,
  ],
  [
    "drop",
    "drop: answers neither 201 nor a clean refusal",
    (r) => count(r.drop.unclean),
    "0",
    (v) => v === 0,
  ],
  [
    "drop",
    "drop: the last answer after (s)",
    (r) => ({ value: r.drop.seconds, text: r.drop.stalled ? "stalled" : fmt(r.drop.seconds, 2) }),
    "<= 2",
    (v) => v <= 2,
  ],
  [
    "webhooks",
    "backlog of 2,000 events: events/s",
    (r) => ({ value: r.webhooks.backlog.perSecond, text: fmt(r.webhooks.backlog.perSecond) }),
    ">= 500",
    (v) => v >= 500,
  ],
  [
    "webhooks",
    "backlog of 2,000 events: p99 (s)",
    (r) => seconds(r.webhooks.backlog.p99),
    "< 5",
    (v) => v < 5,
  ],
  [
    "console-live",
    "a booking heard by an open console (WebSocket, from its POST): p99 (s)",
    (r) => seconds(r["console-live"].wsFromSent.p99),
    "< 3",
    (v) => v < 3,
  ],
  [
    "console-live",
    "bookings the WebSocket missed (of 20)",
    (r) => count(r["console-live"].ws.missed),
    "0",
    (v) => v === 0,
  ],
  [
    "console-live",
    "an idle open console: requests per minute",
    (r) => ({
      value: r["console-live"].idle.wsSentPerMinute,
      text: fmt(r["console-live"].idle.wsSentPerMinute, 1),
    }),
    "<= 6",
    (v) => v <= 6,
  ],
  [
    "upload",
    "the Worker's upload, gzipped (KiB)",
    (r) => ({ value: r.upload.gzipKib, text: fmt(r.upload.gzipKib, 1) }),
    "<= 1024",
    (v) => v <= 1024,
  ],
  [
    "upload",
    "the Worker's start-up CPU, least of its profiles (ms)",
    (r) => ({ value: r.upload.startupMs, text: fmt(r.upload.startupMs, 1) }),
    "< 150",
    (v) => v < 150,
  ],
  [
    "payments",
    "Stripe calls inside a booking's answer, and the pay step's (most)",
    (r) => count(Math.max(r.payments.bookingCallsMax, r.payments.payStepCallsMax)),
    "<= 1",
    (v) => v <= 1,
  ],
  [
    "payments",
    "Stripe's payment to ACCEPTED and its webhook: p99 (s)",
    (r) => ({
      value: r.payments.missed ? Infinity : r.payments.p99 / 1000,
      text: fmt(r.payments.p99 / 1000, 3),
    }),
    "<= 1",
    (v) => v <= 1,
  ],
  [
    "widget",
    "Lighthouse performance, hosted booking page (median of 3)",
    (r) => count(r.widget.lighthouse.performance),
    "100",
    (v) => v === 100,
  ],
];

/** Figures that must not get worse beyond the run's noise: no target of their own here. */
const WATCHED = [
  [
    "storage",
    "bytes kept per reservation",
    (r) => ({ value: r.storage.keptForGood, text: fmt(r.storage.keptForGood, 0) }),
  ],
  ["api", "slots latency 100k/1k (no-cache)", (r) => ratio(r.api.ratios.slotsLatency100kPer1k.value)],
  // beside the p50 goal: a skewed run (a few POSTs very slow, most quick) moves the p50 and not this
  [
    "api",
    "POST /reservations mean / one-record read mean",
    (r) => ratio(r.api.routes.createThenDelete.post.mean / r.api.routes.property.mean),
  ],
  // the same p50 ratio on a Worker that is not saturated: what a guest feels, not a share of one thread
  [
    "api",
    "POST /reservations p50 / read p50, one request at a time",
    (r) => ratio(r.api.ratios.postPerOneRecordOneAtATime.value),
  ],
  ["drop", "drop's last answer / 500 one-record reads at once", (r) => ratio(r.drop.readsAtOnce.ratio)],
  [
    "delivery",
    "webhooks p99 at 50 writes/s (s)",
    (r) => ({ value: r.delivery.webhooks.p99, text: fmt(r.delivery.webhooks.p99, 2) }),
  ],
  [
    "delivery",
    "messages p99 at 50 writes/s (s)",
    (r) => ({ value: r.delivery.messages.p99, text: fmt(r.delivery.messages.p99, 2) }),
  ],
  ["console-live", "polling fallback: delay p99 (s)", (r) => seconds(r["console-live"].poll.p99)],
];

const ratio = (v) => ({ value: v, text: fmt(v, 2) });
const count = (v) => ({ value: v, text: String(v) });
const seconds = (ms) => ({ value: ms / 1000, text: fmt(ms / 1000, 2) });

/** The goals of the parts in `report` (the parts run so far), as objects and as table lines. */
export function goalsOf(report, parts) {
  const goals = GOALS.filter(([part]) => parts.includes(part)).map(([part, label, figure, target, ok]) => {
    const f = safely(() => figure(report));
    return {
      part,
      label,
      value: f?.value,
      figure: f?.text ?? "-",
      target,
      verdict: f && Number.isFinite(f.value) && ok(f.value) ? "OK" : "BELOW",
    };
  });
  const watched = WATCHED.filter(([part]) => parts.includes(part)).map(([part, label, figure]) => {
    const f = safely(() => figure(report));
    return { part, label, value: f?.value, figure: f?.text ?? "-" };
  });
  return { goals, watched };
}

function safely(fn) {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** The goals table: one line per goal (figure, target, OK or BELOW), then the watched figures. */
export function goalLines({ goals, watched }, title = "Goals") {
  if (!goals.length && !watched.length) return [];
  return [
    "",
    `${title}:`,
    ...goals.map((g) => `  ${g.label.padEnd(60)}${g.figure.padStart(9)}  (target ${g.target})  ${g.verdict}`),
    ...watched.map((w) => `  ${w.label.padEnd(60)}${w.figure.padStart(9)}  (not to get worse)`),
  ];
}
