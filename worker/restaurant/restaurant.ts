/**
 * The restaurant's own Durable Object: one per property (named by its id), the single place
 * where whatever concerns the restaurant as a whole, right now, can meet. Its first job: the open
 * consoles' WebSockets, kept with the Hibernation API (the object sleeps between messages, the
 * sockets stay open), and `announce`, the fan-out a change after commit calls (./live.ts). Its
 * second job: the restaurant's booking desk (`book`, ./desk.ts), which decides the restaurant's
 * bookings one at a time and answers a party that cannot fit from what it keeps, without writing.
 * The Worker reaches it through worker/lib/restaurant-object.ts; its methods are plain typed RPC.
 */
import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";
import { withBackground } from "../lib/background";
import { clockFromEnv, nowIso } from "../lib/clock";
import { ACCOUNT_HEADER, SESSION_HEADER, type SocketsToEnd } from "../lib/restaurant-object";
import { type DeskAnswer, type DeskFigures, type DeskJob, newDesk, queueAtDesk } from "./desk";
import type { LiveMessage } from "./live";

/**
 * The sockets' tags: every console of this restaurant, each session's own, and those of sessions the
 * property's own username and password opened (its password's change ends them).
 */
const CONSOLES = "console";
const ACCOUNT = "account";
const sessionTag = (session: number) => `session:${session}`;

/** A session's sockets at most (a page opens one; a flood of them would cost memory): the oldest closes. */
export const SOCKETS_PER_SESSION = 10;
/** Close codes: the session ended (signed out, password changed, ...); too many sockets for one session. */
export const CLOSE_SESSION_ENDED = 4001;
export const CLOSE_TOO_MANY = 4008;

/** What each socket keeps across hibernation. */
interface SocketNote {
  session: number;
  opened: number;
}

export class Restaurant extends DurableObject<Bindings> {
  /** the desk's memory for as long as the object lives (it is rebuilt from D1 when lost) */
  private readonly desk = newDesk();

  /** A booking for the desk: decided in turn with the others of the restaurant. */
  async book(job: DeskJob): Promise<DeskAnswer> {
    // a door of its own: the clock as the Worker's, and what follows a commit reaches the consoles
    clockFromEnv(this.env);
    const restaurant = {
      propertyId: job.propertyId,
      announce: (message: LiveMessage) => this.announce(message),
    };
    return withBackground({ env: this.env, waitUntil: (work) => this.ctx.waitUntil(work), restaurant }, () =>
      queueAtDesk(this.desk, this.env, job),
    );
  }

  /** What the desk has done since the object started (tests and the bench). */
  async deskFigures(): Promise<DeskFigures> {
    return { ...this.desk.figures };
  }

  /** A console's WebSocket upgrade (already authorised by the Worker): accepted, greeted, kept under its session. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket")
      return new Response("expected a WebSocket upgrade", { status: 426 });
    const session = Number(request.headers.get(SESSION_HEADER));
    if (!Number.isSafeInteger(session) || session <= 0)
      return new Response(`expected the session in ${SESSION_HEADER}`, { status: 400 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    const account = request.headers.get(ACCOUNT_HEADER) === "1";
    this.ctx.acceptWebSocket(server, [CONSOLES, sessionTag(session), ...(account ? [ACCOUNT] : [])]);
    server.serializeAttachment({ session, opened: Date.now() } satisfies SocketNote);
    server.send(JSON.stringify({ type: "hello", at: nowIso() } satisfies LiveMessage));
    this.keepNewest(session);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Closes a session's oldest sockets beyond SOCKETS_PER_SESSION. */
  private keepNewest(session: number): void {
    const sockets = this.ctx.getWebSockets(sessionTag(session));
    if (sockets.length <= SOCKETS_PER_SESSION) return;
    const opened = (ws: WebSocket) => (ws.deserializeAttachment() as SocketNote | null)?.opened ?? 0;
    // a stable sort: sockets opened in the same millisecond stay in the order they were accepted
    const oldest = [...sockets].sort((a, b) => opened(a) - opened(b));
    for (const ws of oldest.slice(0, sockets.length - SOCKETS_PER_SESSION))
      closeQuietly(ws, CLOSE_TOO_MANY, "too many live sockets for this session");
  }

  /** Closes the sockets of these sessions ("account": the account's, "all": of every session); answers how many. */
  async endSessions(sessions: SocketsToEnd): Promise<number> {
    const sockets =
      sessions === "all"
        ? this.ctx.getWebSockets(CONSOLES)
        : sessions === "account"
          ? this.ctx.getWebSockets(ACCOUNT)
          : sessions.flatMap((session) => this.ctx.getWebSockets(sessionTag(session)));
    for (const ws of sockets) closeQuietly(ws, CLOSE_SESSION_ENDED, "session ended");
    return sockets.length;
  }

  /** Fan-out: the message to every open console of the restaurant; answers how many heard it. */
  async announce(message: LiveMessage): Promise<number> {
    const text = JSON.stringify(message);
    let sent = 0;
    for (const ws of this.ctx.getWebSockets(CONSOLES)) {
      try {
        ws.send(text);
        sent++;
      } catch {
        // a socket closing as we speak: it hears nothing more
      }
    }
    return sent;
  }

  /** How many consoles are open (tests and the bench). */
  async consoles(): Promise<number> {
    return this.ctx.getWebSockets(CONSOLES).filter((ws) => ws.readyState === WebSocket.OPEN).length;
  }

  /** A console's keep-alive: "ping" answers "pong"; anything else is ignored. */
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message === "ping") ws.send("pong");
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeQuietly(ws, code, reason);
  }
}

function closeQuietly(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // already closed
  }
}
