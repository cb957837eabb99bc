/**
 * The hosted pages' HTML: a small shell around `<booking-engine>`, whose bundle does the work.
 * Every value written into a page goes through hono's `html`, which escapes it.
 */
import { html, raw } from "hono/html";
import { resolveSettings } from "../../shared/schemas";
import type { PropertyRow } from "../env";
import { type Locale, textsFor } from "./guest";

export type Page = "welcome" | "services" | "book" | "manage" | "offer" | "pay";

/** Days of times the booking page asks for first (the widget's SCAN_DAYS). */
const SCAN_DAYS = 14;

/** Page titles and descriptions in the widget's locales. */
const TEXT: Record<
  Locale,
  Record<Page, string> & {
    describe: (name: string) => string;
    notFound: string;
    noScript: string;
    loading: string;
    language: string;
  }
> = {
  en: {
    welcome: "Welcome",
    services: "Menus and services",
    book: "Book a table",
    manage: "Your reservation",
    offer: "A table for you",
    pay: "Payment",
    describe: (name) => `Book a table at ${name} online.`,
    notFound: "This restaurant does not take online bookings here.",
    noScript: "Online booking needs JavaScript.",
    loading: "Loading…",
    language: "Language",
  },
  it: {
    welcome: "Benvenuti",
    services: "Menu e servizi",
    book: "Prenota un tavolo",
    manage: "La tua prenotazione",
    offer: "Un tavolo per te",
    pay: "Pagamento",
    describe: (name) => `Prenota un tavolo da ${name} online.`,
    notFound: "Questo ristorante non accetta prenotazioni online qui.",
    noScript: "La prenotazione online richiede JavaScript.",
    loading: "Caricamento…",
    language: "Lingua",
  },
  fr: {
    welcome: "Bienvenue",
    services: "Menus et services",
    book: "Réserver une table",
    manage: "Votre réservation",
    offer: "Une table pour vous",
    pay: "Paiement",
    describe: (name) => `Réservez une table chez ${name} en ligne.`,
    notFound: "Ce restaurant ne prend pas de réservations en ligne ici.",
    noScript: "La réservation en ligne nécessite JavaScript.",
    loading: "Chargement…",
    language: "Langue",
  },
  de: {
    welcome: "Willkommen",
    services: "Menüs und Angebote",
    book: "Tisch reservieren",
    manage: "Ihre Reservierung",
    offer: "Ein Tisch für Sie",
    pay: "Zahlung",
    describe: (name) => `Reservieren Sie online einen Tisch im ${name}.`,
    notFound: "Dieses Restaurant nimmt hier keine Online-Reservierungen an.",
    noScript: "Die Online-Reservierung benötigt JavaScript.",
    loading: "Wird geladen…",
    language: "Sprache",
  },
  es: {
    welcome: "Bienvenidos",
    services: "Menús y servicios",
    book: "Reservar mesa",
    manage: "Tu reserva",
    offer: "Una mesa para ti",
    pay: "Pago",
    describe: (name) => `Reserva una mesa en ${name} online.`,
    notFound: "Este restaurante no acepta reservas online aquí.",
    noScript: "La reserva online necesita JavaScript.",
    loading: "Cargando…",
    language: "Idioma",
  },
};

// Lit styles the element through constructable stylesheets; the page's own style is inline
// (a constant, written raw: escaping would break its quotes).
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // the widget loads the browser's date data in a worker of its own (widget/prepare.ts)
  "worker-src blob:",
  "style-src 'self' 'unsafe-inline'",
  // http: too: settings accept http logos and photos, and browsers upgrade them on an https page.
  "img-src 'self' https: http: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/**
 * The payment page's policy: the one page where Stripe's script runs, its frames (the card field,
 * 3-D Secure) show and its API is reached. `stripeJs`: where Stripe.js comes from (Stripe's own, or
 * the local stand-in's in development and tests).
 */
export function paymentCsp(stripeJs: string): string {
  const origin = new URL(stripeJs).origin;
  const stripe = origin === "https://js.stripe.com";
  const frames = stripe ? `${origin} https://hooks.stripe.com` : origin;
  const api = stripe ? "https://api.stripe.com" : origin;
  return CSP.replace("script-src 'self'", `script-src 'self' ${origin}`)
    .replace("connect-src 'self'", `connect-src 'self' ${api}`)
    .concat(`; frame-src ${frames}`);
}

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{color-scheme:light;-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;min-height:100dvh;display:flex;flex-direction:column;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f4f1;color:#1f1c19}
main{flex:1;width:100%;max-width:48rem;margin:0 auto;padding:clamp(1rem,4vw,2.5rem) clamp(.75rem,4vw,2rem)}
`.replace(/\n/g, "");
const ELEMENT_STYLE = `
.sr-only{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
booking-engine{display:block;min-height:24rem}
.be-loading{margin:1rem 0;color:#5f5850}
.be-skel i{display:block;border-radius:.5rem;background:#e4ded6}
.be-skel-bar{height:2.75rem;max-width:16rem;margin-bottom:1.5rem}
.be-skel-days{display:grid;grid-template-columns:repeat(7,1fr);gap:.375rem;margin-bottom:1.5rem}
.be-skel-days i{height:2.75rem}
.be-skel-times{display:flex;flex-wrap:wrap;gap:.5rem}
.be-skel-times i{width:4.5rem;height:2.75rem}
.lang{display:flex;justify-content:flex-end;margin:0 0 .5rem}
.lang ul{display:flex;flex-wrap:wrap;gap:.25rem .75rem;margin:0;padding:0;list-style:none;font-size:.875rem}
.lang a{display:inline-block;padding:.375rem .125rem;color:#1f1c19}
.lang a[aria-current]{font-weight:600;text-decoration:none}
noscript p{padding:1rem;border:1px solid;border-radius:.5rem}
`.replace(/\n/g, "");

/** What a page shows: the restaurant, the widget's page and what the address adds to it. */
export interface Shell {
  property: PropertyRow;
  page: Page;
  locale: Locale;
  /** the manage or offer token of the address */
  token: string | undefined;
  /** the address's path, for the language switch */
  path: string;
  /** `?pax=` and `?accent=` of the address, already checked */
  pax: string | undefined;
  accent: string | undefined;
  /** the widget's chunks this page loads first (modulepreload: fetched beside the module, not after it) */
  modules?: string[];
}

/**
 * What the booking page asks for first, asked by the page itself while the script loads (the
 * same URLs as the widget's, so it takes these answers): the restaurant, and its times from the
 * first bookable day for the party of the address (else two), as the widget asks them beside it.
 */
function preloads(v: Shell) {
  if (v.page !== "book") return "";
  const settings = resolveSettings(v.property.settings);
  const base = `/api/v2/public/${encodeURIComponent(v.property.publicKey)}`;
  const pax = Math.min(Number(v.pax ?? 2), settings.max_online_pax);
  // no date: the first day bookable online, as the widget asks beside the profile
  const slots = new URLSearchParams({ pax: String(pax), days: String(SCAN_DAYS), locale: v.locale });
  const link = (href: string) => html`<link rel="preload" href="${href}" as="fetch" crossorigin>
`;
  return html`${link(`${base}?locale=${v.locale}`)}${link(`${base}/slots?${slots}`)}`;
}

/** The page's title and description, in its language. */
function heading(v: Shell) {
  const settings = resolveSettings(v.property.settings);
  const t = TEXT[v.locale];
  const name = v.property.name;
  const title = v.page === "welcome" ? name : `${t[v.page]} · ${name}`;
  const description =
    (v.page === "welcome" && (textsFor(settings, v.locale).welcome_message || settings.welcome_message)) ||
    t.describe(name);
  return { title, description, accent: settings.accent_color, icon: settings.logo_url ?? "/favicon.svg" };
}

/**
 * The booking page's shape before its script and data arrive (a slow phone's first paint): the
 * party, a fortnight of days and a row of times drawn quiet, the word for a screen reader. It
 * stands still: a pulse would have the compositor draw every frame while the script loads and
 * runs, taking CPU from the main thread just when it is busiest.
 */
function bookSkeleton(loading: string) {
  const cells = (n: number) => raw("<i></i>".repeat(n));
  return html`<div slot="loading" role="status" class="be-loading"><span class="sr-only">${loading}</span><div class="be-skel" aria-hidden="true"><i class="be-skel-bar"></i><div class="be-skel-days">${cells(14)}</div><div class="be-skel-times">${cells(6)}</div></div></div>`;
}

/** The element, with the attributes the page and its address give it. */
function element(v: Shell) {
  const token = v.token === undefined ? "" : html` token="${v.token}"`;
  const pax = v.pax ? html` pax="${v.pax}"` : "";
  const accent = v.accent ? html` style="--be-accent: ${v.accent}"` : "";
  // What shows until the widget has its data, in the page's language (the widget's slot "loading").
  const loading =
    v.page === "book"
      ? bookSkeleton(TEXT[v.locale].loading)
      : html`<p slot="loading" role="status" class="be-loading">${TEXT[v.locale].loading}</p>`;
  return html`<booking-engine property="${v.property.publicKey}" page="${v.page}" locale="${v.locale}" hosted${token}${pax}${accent}>${loading}</booking-engine>`;
}

/** Each language's own name. */
const NAMES: Record<Locale, string> = {
  en: "English",
  it: "Italiano",
  fr: "Français",
  de: "Deutsch",
  es: "Español",
};

/** The language switch: this page in each language, what the address adds kept. */
function languages(v: Shell) {
  const href = (locale: Locale) => {
    const q = new URLSearchParams({ locale });
    if (v.pax) q.set("pax", v.pax);
    if (v.accent) q.set("accent", v.accent);
    return `${v.path}?${q}`;
  };
  const item = (locale: Locale) =>
    html`<li><a href="${href(locale)}" hreflang="${locale}" lang="${locale}"${locale === v.locale ? html` aria-current="true"` : ""}>${NAMES[locale]}</a></li>`;
  return html`<nav class="lang" aria-label="${TEXT[v.locale].language}"><ul>${(Object.keys(NAMES) as Locale[]).map(item)}</ul></nav>`;
}

export function shellPage(v: Shell) {
  const { title, description, accent, icon } = heading(v);
  const phone = v.property.phone ? html` · ${v.property.phone}` : "";
  return html`<!doctype html>
<html lang="${v.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<link rel="icon" href="${icon}">
${v.page === "manage" || v.page === "offer" || v.page === "pay" ? html`<meta name="robots" content="noindex">` : ""}
${accent ? html`<meta name="theme-color" content="${accent}">` : ""}
<style>${raw(STYLE + ELEMENT_STYLE)}</style>
${preloads(v)}${(v.modules ?? []).map(
  (href) => html`<link rel="modulepreload" href="${href}">
`,
)}<script type="module" src="/widget/booking-engine.js"></script>
</head>
<body>
<main>
${languages(v)}
<h1 class="sr-only">${title}</h1>
${element(v)}
<noscript><p>${TEXT[v.locale].noScript} ${v.property.name}${phone}</p></noscript>
</main>
</body>
</html>`;
}

export function notFoundPage() {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Restaurant not found</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<meta name="robots" content="noindex">
<style>${raw(STYLE)}</style>
</head>
<body>
<main>
<h1>Restaurant not found</h1>
<p>${TEXT.en.notFound}</p>
</main>
</body>
</html>`;
}
