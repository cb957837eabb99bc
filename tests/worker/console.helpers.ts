/** A browser on the console, for the Worker suites: its address, its cookies, its CSRF token and its live sockets. */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { freshIp, ORIGIN } from "./helpers";

export const worker = () => (exports as unknown as { default: Fetcher }).default;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** A live socket and what it heard: its frames, and its close once it came. */
export interface LiveSocket {
  ws: WebSocket;
  frames: string[];
  closed: { code: number; reason: string } | undefined;
}

export class ConsoleBrowser {
  readonly cookies = new Map<string, string>();
  csrf = "";

  constructor(readonly ip = freshIp()) {}

  /**
   * A request of the console's page (JSON, its own Origin and Sec-Fetch-Site on writes, its cookies
   * and CSRF token); `raw`: a body sent as it is, with only the headers given; `bare`: no Origin
   * nor Sec-Fetch-Site (a client that is no browser).
   */
  async fetch(
    path: string,
    init: {
      method?: string;
      body?: unknown;
      raw?: BodyInit;
      headers?: Record<string, string>;
      bare?: boolean;
    } = {},
  ) {
    const method = init.method ?? (init.body === undefined && init.raw === undefined ? "GET" : "POST");
    const write = method !== "GET" && method !== "HEAD" && !init.bare;
    const res = await worker().fetch(
      new Request(`${ORIGIN}${path}`, {
        method,
        redirect: "manual",
        headers: {
          "CF-Connecting-IP": this.ip,
          ...(this.cookies.size && { Cookie: this.cookieHeader() }),
          ...(write && { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", "X-CSRF-Token": this.csrf }),
          ...(init.body !== undefined && { "Content-Type": "application/json" }),
          ...init.headers,
        },
        body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
      }),
    );
    this.keep(res.headers);
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json } satisfies Answer;
  }

  async signIn(username: string, password: string) {
    const res = await this.fetch("/console/session", { body: { username, password } });
    if (res.status === 200) this.csrf = res.json.data[0].csrf_token;
    return res;
  }

  /** Opens the live feed; fails the test unless it upgrades. */
  async openLive(): Promise<LiveSocket> {
    const res = await worker().fetch(
      new Request(`${ORIGIN}/console/live`, {
        headers: { Cookie: this.cookieHeader(), Upgrade: "websocket", Origin: ORIGIN },
      }),
    );
    expect(res.status).toBe(101);
    const socket: LiveSocket = { ws: res.webSocket!, frames: [], closed: undefined };
    socket.ws.accept();
    socket.ws.addEventListener("message", (e) => socket.frames.push(String(e.data)));
    socket.ws.addEventListener("close", (e) => {
      socket.closed = { code: e.code, reason: e.reason };
    });
    return socket;
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private keep(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [name, ...rest] = line.split(";")[0]!.split("=");
      const value = rest.join("=");
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
  }
}

/** Waits (up to 5 s) until `done` holds. */
export async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((ok) => setTimeout(ok, 50));
  expect(done(), what).toBe(true);
}

/** The console_session cookie an answer sets, as a Cookie header's pair ("" when it sets none). */
export function sessionCookie(headers: Headers): string {
  const line = headers.getSetCookie().find((l) => l.startsWith("console_session="));
  return line ? line.split(";")[0]! : "";
}
