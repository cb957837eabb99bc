/**
 * The booking flow's memory: each step is a browser history entry (Back and
 * Forward move between steps; on the hosted pages the address carries the step as `?step=`),
 * and what the guest chose and typed survives a reload in sessionStorage. Never the manage
 * token: a finished booking keeps only the party size.
 */
import type { GuestForm } from "../parts/guest-fields.js";

export type Step = "choose" | "details" | "done";

export interface Draft {
  step: Step;
  pax: number;
  date?: string | undefined;
  hour?: string | undefined;
  waiting?: boolean;
  /** waiting: the latest start of the range */
  until?: string | undefined;
  serviceId?: number | undefined;
  guest?: GuestForm;
}

const key = (publicKey: string) => `booking-engine:${publicKey}:draft`;

/** Storage can be off (private modes, sandboxed frames): then the flow simply forgets. */
export function loadDraft(publicKey: string): Partial<Draft> | undefined {
  try {
    const raw = sessionStorage.getItem(key(publicKey));
    return raw ? (JSON.parse(raw) as Partial<Draft>) : undefined;
  } catch {
    return undefined;
  }
}

export function saveDraft(publicKey: string, draft: Draft) {
  try {
    sessionStorage.setItem(key(publicKey), JSON.stringify(draft));
  } catch {
    // full or off: nothing to keep then
  }
}

/** The step in the history entry this element wrote, if any. */
export const stepOf = (state: unknown): Step | undefined =>
  (state as { bookingEngineStep?: Step } | null)?.bookingEngineStep;

/**
 * Records `step` as a history entry (or replaces the current one). The host's own state object
 * is kept; only the hosted pages change the address.
 */
export function recordStep(step: Step, hosted: boolean, replace = false) {
  const state = { ...(history.state as object | null), bookingEngineStep: step };
  let url: string | undefined;
  if (hosted) {
    const u = new URL(location.href);
    if (step === "choose") u.searchParams.delete("step");
    else u.searchParams.set("step", step);
    url = u.href;
  }
  if (replace) history.replaceState(state, "", url);
  else history.pushState(state, "", url);
}
