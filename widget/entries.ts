/**
 * An element's own history entries: it records the entry it opened on a task later (a
 * same-document navigation costs the task that draws the page time), and not at all when it
 * wrote another entry meanwhile, which that later write would overwrite.
 */
export interface OwnEntries {
  /** The element wrote an entry (pushed or replaced one). */
  wrote(): void;
  /** Runs `write` a task later, unless the element wrote an entry before then. */
  firstLater(write: () => void): void;
}

export function ownEntries(): OwnEntries {
  let written = 0;
  return {
    wrote: () => void written++,
    firstLater(write) {
      const at = written;
      setTimeout(() => written === at && write());
    },
  };
}
