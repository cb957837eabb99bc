/**
 * An element's own history entries: it records the entry it opened on a task later (a
 * same-document navigation costs the task that draws the page time), and not at all when it
 * wrote another entry meanwhile, which that later write would overwrite.
 */
export class OwnEntries {
  private written = 0;

  /** The element wrote an entry (pushed or replaced one). */
  wrote(): void {
    this.written++;
  }

  /** Runs `write` a task later, unless the element wrote an entry before then. */
  firstLater(write: () => void): void {
    const at = this.written;
    setTimeout(() => {
      if (this.written === at) write();
    });
  }
}
