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
import { type DeskAnswer, type DeskFigures, type DeskJob, newDesk, queueAtDesk } from "./desk";
import type { LiveMessage } from "./live";

/** The sockets' tag: the consoles of this restaurant. */
const CONSOLES = "console";

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

  /** A console's WebSocket upgrade (already authorised by the Worker): accepted, greeted, kept. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket")
      return new Response("expected a WebSocket upgrade", { status: 426 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [CONSOLES]);
    server.send(JSON.stringify({ type: "hello", at: nowIso() } satisfies LiveMessage));
    return new Response(null, { status: 101, webSocket: client });
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
    return this.ctx.getWebSockets(CONSOLES).length;
  }

  /** A console's keep-alive: "ping" answers "pong"; anything else is ignored. */
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message === "ping") ws.send("pong");
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // already closed
    }
  }
}
