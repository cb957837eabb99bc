/**
 * The widget's one clock. Dates and times on screen come from the restaurant's API (its wall
 * clock), never from the browser's; this clock only ages what the widget has cached. Tests
 * inject another with setClock().
 */
let source: () => number = () => Date.now();

export const now = (): number => source();

/** Replaces the clock (a function answering epoch milliseconds); no argument restores Date.now. */
export function setClock(clock: () => number = () => Date.now()): void {
  source = clock;
}
