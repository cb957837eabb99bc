/**
 * The console's HTML shell: the same page at every one of its paths, holding <booking-console>,
 * which routes on location.pathname. Strict CSP (scripts from this origin only, no inline
 * script), never framed, never stored.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { acceptedLocale, asLocale, currentConsoleSession } from "./session";

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const SHELL_HEADERS: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": CSP,
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
};

/** The paths that answer the shell (`:name` is one path segment); a day or timeline without a date is today's. */
export const SHELL_PATHS = [
  "/console",
  "/console/sign-in",
  "/console/new",
  "/console/day",
  "/console/day/:date",
  "/console/timeline",
  "/console/timeline/:date",
  "/console/reservations/:id",
  "/console/guests/:id",
  "/console/restaurant",
  "/console/restaurant/:section",
  "/console/reset/:token",
  "/console/invite/:token",
];

export function shell(locale: string): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Console</title>
<script type="module" src="/widget/booking-console.js"></script>
</head>
<body>
<booking-console locale="${locale}"></booking-console>
</body>
</html>
`;
}

export async function showShell(c: Context<AppEnv>) {
  const session = await currentConsoleSession(c);
  const locale = session ? asLocale(session.row.locale) : acceptedLocale(c.req.header("Accept-Language"));
  return c.body(shell(locale), 200, SHELL_HEADERS);
}
