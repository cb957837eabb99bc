/**
 * The hosted pages (CONTRACT 8): /p/{public_key}[/services|/book|/manage/{token}|/offer/{token}]. Each is a
 * small server-rendered shell around `<booking-engine>`, whose bundle does the work. Every
 * value written into the page goes through hono's `html`, which escapes it.
 */
import { Hono, type Context } from "hono";
import { html, raw } from "hono/html";
import { LOCALES, resolveSettings } from "../../shared/schemas";
import type { AppEnv, PropertyRow } from "../env";
import { bindByPublicKey } from "../properties/binding";
import { textsFor } from "./guest";
import { guestVisible } from "./public.repo";

type Page = "welcome" | "services" | "book" | "manage" | "offer";
type Locale = (typeof LOCALES)[number];

/** Page titles and descriptions in the widget's locales. */
const TEXT: Record<Locale, Record<Page, string> & { describe: (name: string) => string; notFound: string; noScript: string }> = {
  en: {
    welcome: "Welcome",
    services: "Menus and services",
    book: "Book a table",
    manage: "Your reservation",
    offer: "A table for you",
    describe: (name) => `Book a table at ${name} online.`,
    notFound: "This restaurant does not take online bookings here.",
    noScript: "Online booking needs JavaScript.",
  },
  it: {
    welcome: "Benvenuti",
    services: "Menu e servizi",
    book: "Prenota un tavolo",
    manage: "La tua prenotazione",
    offer: "Un tavolo per te",
    describe: (name) => `Prenota un tavolo da ${name} online.`,
    notFound: "Questo ristorante non accetta prenotazioni online qui.",
    noScript: "La prenotazione online richiede JavaScript.",
  },
  fr: {
    welcome: "Bienvenue",
    services: "Menus et services",
    book: "Réserver une table",
    manage: "Votre réservation",
    offer: "Une table pour vous",
    describe: (name) => `Réservez une table chez ${name} en ligne.`,
    notFound: "Ce restaurant ne prend pas de réservations en ligne ici.",
    noScript: "La réservation en ligne nécessite JavaScript.",
  },
  de: {
    welcome: "Willkommen",
    services: "Menüs und Angebote",
    book: "Tisch reservieren",
    manage: "Ihre Reservierung",
    offer: "Ein Tisch für Sie",
    describe: (name) => `Reservieren Sie online einen Tisch im ${name}.`,
    notFound: "Dieses Restaurant nimmt hier keine Online-Reservierungen an.",
    noScript: "Die Online-Reservierung benötigt JavaScript.",
  },
  es: {
    welcome: "Bienvenidos",
    services: "Menús y servicios",
    book: "Reservar mesa",
    manage: "Tu reserva",
    offer: "Una mesa para ti",
    describe: (name) => `Reserva una mesa en ${name} online.`,
    notFound: "Este restaurante no acepta reservas online aquí.",
    noScript: "La reserva online necesita JavaScript.",
  },
};

// Lit styles the element through constructable stylesheets; the page's own style is inline
// (a constant, written raw: escaping would break its quotes).
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // http: too: settings accept http logos and photos, and browsers upgrade them on an https page.
  "img-src 'self' https: http: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{color-scheme:light;-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;min-height:100dvh;display:flex;flex-direction:column;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f4f1;color:#1f1c19}
main{flex:1;width:100%;max-width:48rem;margin:0 auto;padding:clamp(1rem,4vw,2.5rem) clamp(.75rem,4vw,2rem)}
`.replace(/\n/g, "");
const ELEMENT_STYLE = `
.sr-only{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
booking-engine{display:block;min-height:24rem}
booking-engine:not(:defined){visibility:hidden}
noscript p{padding:1rem;border:1px solid;border-radius:.5rem}
`.replace(/\n/g, "");

function pickLocale(c: Context<AppEnv>, property: PropertyRow): Locale {
  const asked = c.req.query("locale");
  return (LOCALES as readonly string[]).includes(asked ?? "") ? (asked as Locale) : resolveSettings(property.settings).locale;
}

/**
 * What the address may add to the element: `?pax=` (book again with the party kept) and
 * `?accent=#rrggbb` (the theme of the site that embedded the widget and opened this page).
 * Both strictly checked: they are written into the page.
 */
function fromQuery(c: Context<AppEnv>) {
  const pax = c.req.query("pax");
  const accent = c.req.query("accent");
  return {
    pax: pax && /^[1-9]\d{0,2}$/.test(pax) ? pax : undefined,
    accent: accent && /^#[0-9a-fA-F]{6}$/.test(accent) ? accent : undefined,
  };
}

function render(c: Context<AppEnv>, property: PropertyRow, page: Page, token?: string) {
  const settings = resolveSettings(property.settings);
  const q = fromQuery(c);
  const locale = pickLocale(c, property);
  const t = TEXT[locale];
  const title = page === "welcome" ? property.name : `${t[page]} · ${property.name}`;
  const description = (page === "welcome" && (textsFor(settings, locale).welcome_message || settings.welcome_message)) || t.describe(property.name);
  const headers: Record<string, string> = { "Content-Security-Policy": CSP };
  if (page === "manage" || page === "offer") {
    // The token is in the address: keep it out of caches, Referer headers, indexes and frames.
    Object.assign(headers, { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex", "Content-Security-Policy": `${CSP}; frame-ancestors 'none'` });
  } else {
    headers["Cache-Control"] = "no-cache";
  }
  const phone = property.phone ? html` · ${property.phone}` : "";
  return c.html(
    html`<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<link rel="icon" href="data:,">
${page === "manage" || page === "offer" ? html`<meta name="robots" content="noindex">` : ""}
${settings.accent_color ? html`<meta name="theme-color" content="${settings.accent_color}">` : ""}
<style>${raw(STYLE + ELEMENT_STYLE)}</style>
<script type="module" src="/widget/booking-engine.js"></script>
</head>
<body>
<main>
<h1 class="sr-only">${title}</h1>
<booking-engine property="${property.publicKey}" page="${page}" locale="${locale}" hosted${token === undefined ? "" : html` token="${token}"`}${q.pax ? html` pax="${q.pax}"` : ""}${q.accent ? html` style="--be-accent: ${q.accent}"` : ""}></booking-engine>
<noscript><p>${t.noScript} ${property.name}${phone}</p></noscript>
</main>
</body>
</html>`,
    200,
    headers,
  );
}

function notFound(c: Context<AppEnv>) {
  return c.html(
    html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Restaurant not found</title>
<meta name="robots" content="noindex">
<style>${raw(STYLE)}</style>
</head>
<body>
<main>
<h1>Restaurant not found</h1>
<p>${TEXT.en.notFound}</p>
</main>
</body>
</html>`,
    404,
    { "Content-Security-Policy": CSP, "Cache-Control": "no-store" },
  );
}

const page = (name: Page) => async (c: Context<AppEnv>) => {
  const property = await bindByPublicKey(c, c.req.param("public_key") ?? "");
  if (!property || !guestVisible(property)) return notFound(c);
  return render(c, property, name, name === "manage" || name === "offer" ? c.req.param("token") : undefined);
};

export const pagesRouter = new Hono<AppEnv>()
  .get("/:public_key", page("welcome"))
  .get("/:public_key/services", page("services"))
  .get("/:public_key/book", page("book"))
  .get("/:public_key/manage/:token", page("manage"))
  .get("/:public_key/offer/:token", page("offer"));
