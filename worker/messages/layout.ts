/**
 * How a message is laid out, as plain text and as HTML: the restaurant's logo (or name) in its
 * accent, the words, a summary block (date, time, party, address with its map, the manage link),
 * the actions, the web calendar links. Pure; every value goes through hono's `html`, which escapes it.
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { Locale } from "./types";

export interface Link {
  label: string;
  url: string;
}

/** One line of the summary; `href`: a link on the value (or beside it, named `hrefLabel`). */
export interface Row {
  label: string;
  value: string;
  href?: string | undefined;
  hrefLabel?: string | undefined;
}

export interface Block {
  paragraphs: string[];
  rows: Row[];
  /** the manage link, the summary's last line */
  manage?: Link | undefined;
  buttons: Link[];
  calendar: Link[];
  calendarLabel?: string | undefined;
}

export interface Letter {
  subject: string;
  greeting: string;
  block: Block;
  /** lines; empty: none */
  signature: string;
  footer: string;
}

export interface Brand {
  name: string;
  accent: string | null;
  logo: string | null;
}

/** Text with its line breaks as LF: a lone CR (kept in a note, or in a name stored before names were refused one), or CR LF, is one break. */
const breaks = (text: string) => text.replace(/\r\n?/g, "\n");

/** Sections one blank line apart, and no empty one: no blank runs. */
export function asText(l: Letter): string {
  const b = l.block;
  const row = (r: Row) =>
    `${r.label}: ${r.value}${r.href && r.hrefLabel ? ` (${r.hrefLabel}: ${r.href})` : ""}`;
  const link = (k: Link) => `${k.label}: ${k.url}`;
  const sections = [
    l.greeting,
    ...b.paragraphs,
    [...b.rows.map(row), ...(b.manage ? [link(b.manage)] : [])].join("\n"),
    b.buttons.map(link).join("\n"),
    b.calendar.length ? [`${b.calendarLabel ?? ""}:`, ...b.calendar.map(link)].join("\n") : "",
    l.signature,
    `--\n${l.footer}`,
  ];
  return breaks(sections.filter((s) => s.trim()).join("\n\n"));
}

const HOUSE = "#1f1c19";
/**
 * A long unbroken value (a guest's email address, a link) wraps anywhere rather than widening the
 * message past a phone's screen: `overflow-wrap: anywhere` lets a table cell shrink, and
 * `word-break: break-word` does the same in clients that know only that. The summary's labels take
 * their own width (`width: 1%`, unwrapped) and its values all the rest, so a value that fits is
 * never broken.
 */
const WRAP = "overflow-wrap:anywhere;word-break:break-word";

/** WCAG relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((n) => parseInt(hex.slice(n, n + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The accent, the text on it, and the colour of links on white: the house's where the accent reads too faintly. */
export function palette(accent: string | null) {
  const a = accent && /^#[0-9a-fA-F]{6}$/.test(accent) ? accent : HOUSE;
  const l = luminance(a);
  return { accent: a, onAccent: l > 0.179 ? HOUSE : "#ffffff", link: 1.05 / (l + 0.05) >= 4.5 ? a : HOUSE };
}

/** hono's `html` answers synchronously when nothing in it is a promise, as in an email. */
function markup(h: HtmlEscapedString | Promise<HtmlEscapedString>): string {
  if (h instanceof Promise) throw new TypeError("an email's HTML holds no promise");
  return h.toString();
}

type Palette = ReturnType<typeof palette>;

function header(brand: Brand, p: Palette) {
  if (brand.logo)
    return html`<p style="margin:0 0 16px"><img src="${brand.logo}" alt="${brand.name}" height="48" style="max-height:48px;max-width:100%;border:0"></p>`;
  return html`<p style="margin:0 0 16px;font-size:20px;font-weight:700;color:${p.link}">${brand.name}</p>`;
}

function summary(b: Block, p: Palette) {
  if (!b.rows.length && !b.manage) return "";
  const value = (r: Row) => {
    if (!r.href) return breaks(r.value);
    if (!r.hrefLabel) return html`<a href="${r.href}" style="color:${p.link}">${r.value}</a>`;
    return html`${r.value}<br><a href="${r.href}" style="color:${p.link}">${r.hrefLabel}</a>`;
  };
  const rows = b.rows.map(
    (r) =>
      html`<tr><th align="left" valign="top" style="width:1%;padding:4px 12px 4px 0;font-weight:600;white-space:nowrap">${r.label}</th><td style="padding:4px 0;${WRAP}">${value(r)}</td></tr>`,
  );
  const manage = b.manage
    ? html`<tr><td colspan="2" style="padding:8px 0 0"><a href="${b.manage.url}" style="color:${p.link};font-weight:600">${b.manage.label}</a></td></tr>`
    : "";
  return html`<table role="presentation" style="width:100%;border-collapse:collapse;margin:20px 0;background:#f6f4f1;border-left:4px solid ${p.accent}"><tbody><tr><td style="padding:12px"><table role="presentation" style="width:100%;border-collapse:collapse">${rows}${manage}</table></td></tr></tbody></table>`;
}

function actions(b: Block, p: Palette) {
  const button = (k: Link) =>
    html`<p style="margin:16px 0"><a href="${k.url}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:${p.accent};color:${p.onAccent};text-decoration:none;font-weight:600">${k.label}</a></p>`;
  const cal = b.calendar.map(
    (k, n) => html`${n ? " · " : ""}<a href="${k.url}" style="color:${p.link}">${k.label}</a>`,
  );
  return html`${b.buttons.map(button)}${b.calendar.length ? html`<p style="margin:16px 0">${b.calendarLabel}: ${cal}</p>` : ""}`;
}

export function asHtml(locale: Locale, brand: Brand, l: Letter): string {
  const p = palette(brand.accent);
  const b = l.block;
  const signature = l.signature
    ? html`<p>${breaks(l.signature)
        .split("\n")
        .map((line, n) => (n ? html`<br>${line}` : line))}</p>`
    : "";
  return markup(html`<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${l.subject}</title></head>
<body style="margin:0;padding:24px 12px;background:#f6f4f1;color:${HOUSE};font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif">
<div style="max-width:36rem;margin:0 auto;background:#ffffff;border-radius:8px;border-top:6px solid ${p.accent};padding:24px 16px;${WRAP}">
${header(brand, p)}
<p>${l.greeting}</p>
${b.paragraphs.map((para) => html`<p>${para}</p>\n`)}${summary(b, p)}${actions(b, p)}
${signature}
</div><p style="max-width:36rem;margin:12px auto;color:#6b645c;font-size:13px">${l.footer}</p></body></html>`);
}
