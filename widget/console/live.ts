/**
 * The console's live feed: a WebSocket on `<base>/live` that says which reservation changed, and
 * polling every 10 s when the socket cannot open or keeps dropping. Either way the console is told
 * "something changed" and re-reads what it shows.
 */

export interface Change {
  id?: number;
  date?: string;
}

export const POLL_MS = 10_000;

export class LiveFeed {
  private socket: WebSocket | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private failures = 0;
  private stopped = false;

  /**
   * `onChange` is called for every change the server reports, and on every poll; `onSessionEnded`
   * when the server closes the socket because the session ended or changed (close code 4001: signed
   * out elsewhere, deactivated, another role, a new password).
   */
  constructor(
    private readonly url: string,
    private readonly onChange: (change: Change) => void,
    private readonly onSessionEnded: () => void = () => {},
  ) {}

  start(): void {
    this.stopped = false;
    if (typeof WebSocket === "undefined") {
      this.poll();
      return;
    }
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.poll();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.failures = 0;
      this.stopPolling();
    });
    socket.addEventListener("message", (e) => this.receive(e.data));
    socket.addEventListener("close", (e) => {
      if (e.code === SESSION_ENDED) this.onSessionEnded();
      this.dropped();
    });
  }

  stop(): void {
    this.stopped = true;
    this.stopPolling();
    this.socket?.close();
    this.socket = undefined;
  }

  /** Whether the console is polling (the socket failed). */
  get polling(): boolean {
    return this.timer !== undefined;
  }

  private receive(data: unknown) {
    try {
      const frame = JSON.parse(String(data)) as { type?: string; id?: number; date?: string };
      if (frame.type === "reservation") this.onChange({ id: frame.id, date: frame.date });
      else if (frame.type === "walk-ins") this.onChange({});
    } catch {
      // not a frame of ours
    }
  }

  /** A closed socket is retried with a growing pause; meanwhile the console polls. */
  private dropped() {
    if (this.stopped) return;
    this.socket = undefined;
    this.failures++;
    this.poll();
    if (this.failures <= 5)
      setTimeout(() => !this.stopped && this.start(), Math.min(60_000, 2_000 * 2 ** this.failures));
  }

  private poll() {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = setInterval(() => this.onChange({}), POLL_MS);
  }

  private stopPolling() {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The close code of a socket whose session ended or changed. */
const SESSION_ENDED = 4001;

/** The WebSocket address of `<base>/live` on this page's origin. */
export function liveUrl(base: string, origin = location.origin): string {
  return `${origin.replace(/^http/, "ws")}${base}/live`;
}
