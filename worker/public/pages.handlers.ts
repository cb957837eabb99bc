/** What a hosted page answers: the shell of a restaurant guests may see, else a page saying it is not found. */
import type { Context } from "hono";
import { type DetectorOptions, detectFromHeader, detectFromQuery } from "hono/language";
import { LOCALES, resolveSettings } from "../../shared/schemas";
import { config } from "../config";
import type { AppEnv, PropertyRow } from "../env";
import { bindByPublicKey } from "../properties/binding";
import type { Locale } from "./guest";
import { pageModules } from "./modules";
import { CSP, notFoundPage, type Page, paymentCsp, shellPage } from "./pages.shell";
import { guestVisible } from "./public.repo";

const DETECT: DetectorOptions = {
  order: ["querystring", "header"],
  lookupQueryString: "locale",
  lookupCookie: "",
  lookupFromPathIndex: 0,
  lookupFromHeaderKey: "accept-language",
  caches: false,
  ignoreCase: true,
  fallbackLanguage: "en",
  supportedLanguages: [...LOCALES],
};

/**
 * The page's language: `?locale=` (a link that names one, the language switch), else the first
 * of the browser's Accept-Language we speak ("it-IT" is Italian), else the restaurant's.
 */
export function pickLocale(c: Context<AppEnv>, property: PropertyRow): Locale {
  const asked = detectFromQuery(c, DETECT) ?? detectFromHeader(c, DETECT);
  return (asked as Locale | undefined) ?? resolveSettings(property.settings).locale;
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

function headersFor(c: Context<AppEnv>, page: Page): Record<string, string> {
  if (page === "manage" || page === "offer" || page === "pay") {
    // The token is in the address: keep it out of caches, Referer headers, indexes and frames.
    // Stripe's script and frames are let in on the payment page alone.
    const csp = page === "pay" ? paymentCsp(config(c.env).stripe.jsUrl) : CSP;
    return {
      "Content-Security-Policy": `${csp}; frame-ancestors 'none'`,
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex",
      Vary: "Accept-Language",
    };
  }
  return { "Content-Security-Policy": CSP, "Cache-Control": "no-cache", Vary: "Accept-Language" };
}

function notFound(c: Context<AppEnv>) {
  return c.html(notFoundPage(), 404, { "Content-Security-Policy": CSP, "Cache-Control": "no-store" });
}

/** The handler of one page; the manage, offer and pay pages pass their token to the element. */
export const page = (name: Page) => async (c: Context<AppEnv>) => {
  const property = await bindByPublicKey(c, c.req.param("public_key") ?? "");
  if (!property || !guestVisible(property)) return notFound(c);
  const token = name === "manage" || name === "offer" || name === "pay" ? c.req.param("token") : undefined;
  const locale = pickLocale(c, property);
  const modules = await pageModules(c.env.ASSETS, name, locale);
  const shell = shellPage({
    property,
    page: name,
    locale,
    path: new URL(c.req.url).pathname,
    token,
    modules,
    ...fromQuery(c),
  });
  return c.html(shell, 200, headersFor(c, name));
};
