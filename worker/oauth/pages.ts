/**
 * The hosted pages of the OAuth flow: sign-in, consent, connected apps and the
 * error page. Server-rendered HTML without a line of script; every value goes through hono's
 * `html`, which escapes it. The one style sheet is inline and allowed by its hash, so the CSP
 * allows nothing else; frames are refused, nothing is cached, no Referer leaves the page.
 */
import type { Context } from "hono";
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { LOCALES } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { sha256Base64 } from "../lib/crypto";
import type { Locale, Text } from "./text";

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const CSS = `
*,*::before,*::after{box-sizing:border-box}
html{color-scheme:light;-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f2ee;color:#1c1a17}
main{width:100%;max-width:30rem;margin:clamp(1rem,6vh,4rem) auto 1rem;padding:clamp(1.25rem,5vw,2rem);background:#fff;border:1px solid #d9d4cc;border-radius:.75rem}
h1{font-size:1.4rem;line-height:1.3;margin:0 0 .75rem}
h2{font-size:1.05rem;margin:0}
p{margin:.5rem 0 1rem}
ul{padding-left:1.25rem}
.muted{color:#4a4640}
.field{display:flex;flex-direction:column;gap:.25rem;margin:0 0 1rem}
label{font-weight:600}
input{font:inherit;padding:.6rem .7rem;border:1px solid #6b655c;border-radius:.4rem;background:#fff;color:inherit;width:100%}
input[aria-invalid=true]{border-color:#a61b1b}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:1.25rem 0 .5rem}
button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:.4rem;border:2px solid #1d4e89;cursor:pointer;background:#1d4e89;color:#fff}
button.secondary{background:#fff;color:#1d4e89}
:focus-visible{outline:3px solid #b45309;outline-offset:2px}
a{color:#1d4e89}
.alert{padding:.75rem 1rem;border-radius:.4rem;border:1px solid #a61b1b;background:#fdf0f0;color:#7f1414}
.done{padding:.75rem 1rem;border-radius:.4rem;border:1px solid #1e6b3a;background:#eef8f1;color:#14502a}
.apps{list-style:none;padding:0;margin:1rem 0}
.apps li{padding:1rem 0;border-top:1px solid #e4dfd7}
.apps form{margin:.5rem 0 0}
nav{margin:0 0 2rem;font-size:.9rem}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;margin:0}
`.replace(/\n/g, "");

let cssHash: Promise<string> | undefined;

/** The page's security headers: the style sheet by its hash, forms only to here and to `formTargets`. */
async function headers(formTargets: string[]): Promise<Record<string, string>> {
  cssHash ??= sha256Base64(CSS);
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${await cssHash}'`,
    "img-src 'self' data:",
    // A form's redirect counts too: consent ends on the client's redirect_uri.
    `form-action 'self'${formTargets.map((t) => ` ${t}`).join("")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "Cache-Control": "no-store",
    Pragma: "no-cache",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "X-Robots-Tag": "noindex",
  };
}

export interface Page {
  locale: Locale;
  title: string;
  body: Html;
  status?: 200 | 400 | 403 | 429;
  formTargets?: string[];
  /** links to this page in the other languages (GET pages only) */
  languages?: (locale: Locale) => string;
}

export async function render(c: Context<AppEnv>, p: Page): Promise<Response> {
  const body = html`<!doctype html>
<html lang="${p.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${p.title}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${raw(CSS)}</style>
</head>
<body>
<main>
${p.body}
</main>
${p.languages ? languageLinks(p.locale, p.languages) : ""}
</body>
</html>`;
  return c.html(body, p.status ?? 200, await headers(p.formTargets ?? []));
}

const NAMES: Record<Locale, string> = {
  en: "English",
  it: "Italiano",
  fr: "Français",
  de: "Deutsch",
  es: "Español",
};

function languageLinks(current: Locale, href: (locale: Locale) => string) {
  const others = LOCALES.filter((l) => l !== current);
  return html`<nav aria-label="${NAMES[current]}"><ul>${others.map((l) => html`<li><a href="${href(l)}" lang="${l}" hreflang="${l}">${NAMES[l]}</a></li>`)}</ul></nav>`;
}

export interface SignInForm {
  t: Text;
  action: string;
  csrf: string;
  title: string;
  intro: string;
  /** the username typed last time (after a failed attempt) */
  username?: string;
  error?: string;
  /** the authorization flow's cancel button and where the browser returns */
  cancel?: boolean;
  returnHost?: string;
}

export function signInBody(f: SignInForm) {
  const invalid = f.error ? "true" : "false";
  return html`<h1>${f.title}</h1>
<p class="muted">${f.intro}</p>
${f.error ? html`<p class="alert" role="alert" id="sign-in-error">${f.error}</p>` : ""}
<form method="post" action="${f.action}">
<input type="hidden" name="csrf" value="${f.csrf}">
<div class="field"><label for="username">${f.t.username}</label>
<input id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="400" value="${f.username ?? ""}" aria-invalid="${invalid}"${f.error ? raw(' aria-describedby="sign-in-error"') : raw(" autofocus")}></div>
<div class="field"><label for="password">${f.t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="200" aria-invalid="${invalid}"${f.error ? raw(' aria-describedby="sign-in-error" autofocus') : ""}></div>
<div class="actions"><button type="submit" name="action" value="sign-in">${f.t.signIn}</button>${
    f.cancel
      ? html`<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>${f.t.cancel}</button>`
      : ""
  }</div>
</form>
${f.returnHost ? html`<p class="muted">${f.t.returnTo(f.returnHost)}</p>` : ""}`;
}

export interface Consent {
  t: Text;
  action: string;
  csrf: string;
  client: string;
  restaurant: string;
  username: string;
  appsHref: string;
  returnHost: string;
}

export function consentBody(f: Consent) {
  return html`<h1>${f.t.consentTitle(f.client, f.restaurant)}</h1>
<p class="muted">${f.t.signedInAs} <strong>${f.username}</strong></p>
<h2>${f.t.willBeAble(f.client)}</h2>
<ul>${f.t.abilities.map((a) => html`<li>${a}</li>`)}</ul>
<p>${f.t.disconnectLater} <a href="${f.appsHref}">${f.t.appsTitle}</a></p>
<form method="post" action="${f.action}">
<input type="hidden" name="csrf" value="${f.csrf}">
<div class="actions"><button type="submit" name="decision" value="approve">${f.t.allow}</button><button type="submit" name="decision" value="deny" class="secondary">${f.t.deny}</button></div>
</form>
<p class="muted">${f.t.returnTo(f.returnHost)}</p>`;
}

export interface ConnectedApp {
  clientId: string;
  name: string;
  host: string;
  connectedOn: string;
  owner: boolean;
}

export interface AppsPage {
  t: Text;
  csrf: string;
  base: string;
  username: string;
  restaurant: string;
  apps: ConnectedApp[];
  /** the name of the app just disconnected */
  disconnected?: string;
  /** why the last action did not happen */
  error?: string;
}

export function appsBody(f: AppsPage) {
  const item = (a: ConnectedApp) => html`<li>
<h2>${a.name}</h2>
<p class="muted">${a.host} · ${f.t.connectedOn(a.connectedOn)}</p>
${
  a.owner
    ? html`<p class="muted">${f.t.owner}</p>`
    : html`<form method="post" action="${f.base}/disconnect"><input type="hidden" name="csrf" value="${f.csrf}"><input type="hidden" name="client_id" value="${a.clientId}"><button type="submit" class="secondary" aria-label="${f.t.disconnect} ${a.name}">${f.t.disconnect}</button></form>`
}
</li>`;
  return html`<h1>${f.t.appsTitle}</h1>
<p class="muted">${f.t.signedInAs} <strong>${f.username}</strong> · ${f.restaurant}</p>
${f.disconnected ? html`<p class="done" role="status">${f.t.disconnected(f.disconnected)}</p>` : ""}
${f.error ? html`<p class="alert" role="alert">${f.error}</p>` : ""}
${f.apps.length ? html`<ul class="apps">${f.apps.map(item)}</ul>` : html`<p>${f.t.noApps}</p>`}
<form method="post" action="${f.base}/sign-out"><input type="hidden" name="csrf" value="${f.csrf}"><div class="actions"><button type="submit" class="secondary">${f.t.signOut}</button></div></form>`;
}

export function errorBody(t: Text, reason: string) {
  return html`<h1>${t.invalidTitle}</h1>
<p>${reason}</p>
<p class="muted">${t.backToApp}</p>`;
}
