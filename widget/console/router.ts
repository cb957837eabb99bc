/**
 * The console's addresses: every view has its own path under /console, so Back, Forward and
 * reload keep the place. Pure: parsing and writing paths, no History API here.
 */
export const ROOT = "/console";

export type Route =
  | { view: "day"; date?: string }
  | { view: "timeline"; date?: string }
  | { view: "new"; walkIn?: boolean }
  | { view: "reservation"; id: number }
  | { view: "guest"; id: number }
  | { view: "guests" }
  | { view: "restaurant" }
  | { view: "waitlist" }
  | { view: "floor" }
  | { view: "sheet"; date?: string }
  | { view: "reports" }
  | { view: "sign-in" }
  | { view: "reset"; token: string }
  | { view: "invite"; token: string };

export type View = Route["view"];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The route of a path (and query); anything unknown opens the day. */
export function parseRoute(pathname: string, search = ""): Route {
  const parts = pathname
    .replace(/\/+$/, "")
    .slice(ROOT.length)
    .split("/")
    .filter(Boolean)
    .map(decodeURIComponent);
  const [head, arg] = parts;
  const id = Number(arg);
  switch (head) {
    case "day":
    case "timeline":
    case "sheet":
      return arg && DATE.test(arg) ? { view: head, date: arg } : { view: head };
    case "waitlist":
    case "floor":
    case "reports":
      return { view: head };
    case "new":
      return new URLSearchParams(search).get("walk_in") === "1"
        ? { view: "new", walkIn: true }
        : { view: "new" };
    case "reservations":
      return Number.isInteger(id) && id > 0 ? { view: "reservation", id } : { view: "day" };
    case "guests":
      if (!arg) return { view: "guests" };
      return Number.isInteger(id) && id > 0 ? { view: "guest", id } : { view: "day" };
    case "restaurant":
      return { view: "restaurant" };
    case "sign-in":
      return { view: "sign-in" };
    case "reset":
      return arg ? { view: "reset", token: arg } : { view: "sign-in" };
    case "invite":
      return arg ? { view: "invite", token: arg } : { view: "sign-in" };
    default:
      return { view: "day" };
  }
}

/** The path of a route. */
export function routePath(route: Route): string {
  switch (route.view) {
    case "day":
    case "timeline":
    case "sheet":
      return route.date
        ? `${ROOT}/${route.view}/${route.date}`
        : route.view === "day"
          ? ROOT
          : `${ROOT}/${route.view}`;
    case "new":
      return route.walkIn ? `${ROOT}/new?walk_in=1` : `${ROOT}/new`;
    case "reservation":
      return `${ROOT}/reservations/${route.id}`;
    case "guest":
      return `${ROOT}/guests/${route.id}`;
    case "reset":
    case "invite":
      return `${ROOT}/${route.view}/${encodeURIComponent(route.token)}`;
    default:
      return `${ROOT}/${route.view}`;
  }
}

/** Today's date (YYYY-MM-DD) in the restaurant's zone at instant `at`. */
export function todayIn(timeZone: string, at: number): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at);
}

/** The wall-clock time (HH:MM:00) in the restaurant's zone at instant `at`, on a whole minute. */
export function nowIn(timeZone: string, at: number): string {
  const hm = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);
  return `${hm}:00`;
}
