/** The hosted pages: small, accessible HTML shells around <booking-engine>, every value escaped. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, freshIp } from "./helpers";
import { GUEST, smallRestaurant } from "./public.fixtures";

const page = (path: string, headers: Record<string, string> = {}) =>
  call(path, { headers: { "CF-Connecting-IP": freshIp(), ...headers } });
const LOADING_EN = '<p slot="loading" role="status" class="be-loading">Loading…</p>';
const LOADING_IT = '<p slot="loading" role="status" class="be-loading">Caricamento…</p>';
/** The booking page's placeholder: its shape (a party bar, 14 days, 6 times) and the word for a screen reader. */
const skeleton = (word: string) =>
  `<div slot="loading" role="status" class="be-loading"><span class="sr-only">${word}</span><div class="be-skel" aria-hidden="true"><i class="be-skel-bar"></i><div class="be-skel-days">${"<i></i>".repeat(14)}</div><div class="be-skel-times">${"<i></i>".repeat(6)}</div></div></div>`;

describe("hosted pages", () => {
  it("serve each page of the widget with lang, title, viewport, description and the module script", async () => {
    const r = await smallRestaurant({ locale: "it", welcome_message: "Benvenuti alla Trattoria!" });
    const cases = [
      ["", "welcome", "Small Trattoria", "Benvenuti alla Trattoria!"],
      [
        "/services",
        "services",
        "Menu e servizi · Small Trattoria",
        "Prenota un tavolo da Small Trattoria online.",
      ],
      [
        "/book",
        "book",
        "Prenota un tavolo · Small Trattoria",
        "Prenota un tavolo da Small Trattoria online.",
      ],
    ] as const;
    for (const [path, name, title, description] of cases) {
      const res = await page(`/p/${r.publicKey}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toMatch(/^text\/html; charset=utf-8/i);
      expect(res.text).toMatch(/^<!doctype html>\n<html lang="it">/);
      expect(res.text).toContain('<meta charset="utf-8">');
      expect(res.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(res.text).toContain(`<title>${title}</title>`);
      expect(res.text).toContain(`<meta name="description" content="${description}">`);
      expect(res.text).toContain('<script type="module" src="/widget/booking-engine.js"></script>');
      // The widget's headings are h2 (it lives inside other people's pages): the page owns the h1.
      expect(res.text).toContain(
        `<h1 class="sr-only">${title}</h1>\n<booking-engine property="${r.publicKey}" page="${name}" locale="it" hosted>${name === "book" ? skeleton("Caricamento…") : LOADING_IT}</booking-engine>`,
      );
      // Small, and nothing render-blocking: no stylesheet links, no classic scripts.
      expect(res.text.length).toBeLessThan(4096);
      expect(res.text).not.toMatch(/<link rel="stylesheet"|<script(?! type="module")/);
      expect(res.headers.get("Content-Security-Policy")).toMatch(/script-src 'self'/);
      // workers only from a blob: URL, as the widget makes one to load the date data
      expect(res.headers.get("Content-Security-Policy")).toMatch(/; worker-src blob:;/);
    }
  });

  it("the manage page passes the token, stays out of caches and Referer headers, and cannot be framed", async () => {
    const r = await smallRestaurant();
    const booking = (
      await r.guest.book({ service_id: r.service.id, date: r.date, hour: "19:00", pax: 2, guest: GUEST })
    ).json.data[0];
    const res = await page(new URL(booking.manage_url).pathname);
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      `<booking-engine property="${r.publicKey}" page="manage" locale="en" hosted token="${booking.manage_token}">${LOADING_EN}</booking-engine>`,
    );
    expect(res.text).toContain("<title>Your reservation · Small Trattoria</title>");
    expect(res.text).toContain('<meta name="robots" content="noindex">');
    expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Content-Security-Policy")).toMatch(/frame-ancestors 'none'/);
  });

  it("?locale= picks one of the widget's languages, anything else falls back to the restaurant's", async () => {
    const r = await smallRestaurant({ locale: "de" });
    const fr = await page(`/p/${r.publicKey}/book?locale=fr`);
    expect(fr.text).toContain('<html lang="fr">');
    expect(fr.text).toContain("<title>Réserver une table · Small Trattoria</title>");
    expect(fr.text).toContain('locale="fr"');
    const odd = await page(`/p/${r.publicKey}/book?locale=%22%3E%3Cscript%3E`);
    expect(odd.text).toContain('<html lang="de">');
    expect(odd.text).not.toContain("<script>");
  });

  it("speaks the browser's language (Accept-Language, by preference), unless ?locale= names one; else the restaurant's", async () => {
    const r = await smallRestaurant({ locale: "de" });
    const lang = async (path: string, accept?: string) =>
      (await page(`/p/${r.publicKey}${path}`, accept ? { "Accept-Language": accept } : {})).text.match(
        /<html lang="(\w+)">/,
      )?.[1];
    expect(await lang("/book", "it-IT,it;q=0.9,en-US;q=0.8,en;q=0.7")).toBe("it");
    expect(await lang("/book", "ja, fr;q=0.4, es-MX;q=0.9")).toBe("es");
    expect(await lang("/book", "ja, zh-CN;q=0.8")).toBe("de");
    expect(await lang("/book?locale=fr", "it-IT,it;q=0.9")).toBe("fr");
    expect(await lang("", "es")).toBe("es");
    const it = await page(`/p/${r.publicKey}/book`, { "Accept-Language": "it-IT" });
    expect(it.text).toContain('locale="it"');
    expect(it.text).toContain("<title>Prenota un tavolo · Small Trattoria</title>");
    expect(it.headers.get("Vary")).toMatch(/Accept-Language/i);
  });

  it("has a language switch: this page in each language, each named in its own, the party and accent kept", async () => {
    const r = await smallRestaurant({ locale: "en" });
    const res = await page(`/p/${r.publicKey}/book?pax=4&accent=%23225522`, { "Accept-Language": "fr-FR" });
    const nav = res.text.match(/<nav class="lang" aria-label="Langue"><ul>(.*?)<\/ul><\/nav>/)?.[1] ?? "";
    const links = [
      ...nav.matchAll(/<a href="([^"]+)" hreflang="(\w+)" lang="\w+"( aria-current="true")?>([^<]+)<\/a>/g),
    ].map((m) => [m[1], m[2], !!m[3], m[4]]);
    const path = `/p/${r.publicKey}/book`;
    expect(links).toEqual([
      [`${path}?locale=en&amp;pax=4&amp;accent=%23225522`, "en", false, "English"],
      [`${path}?locale=it&amp;pax=4&amp;accent=%23225522`, "it", false, "Italiano"],
      [`${path}?locale=fr&amp;pax=4&amp;accent=%23225522`, "fr", true, "Français"],
      [`${path}?locale=de&amp;pax=4&amp;accent=%23225522`, "de", false, "Deutsch"],
      [`${path}?locale=es&amp;pax=4&amp;accent=%23225522`, "es", false, "Español"],
    ]);
  });

  it("shows the booking page's shape until the widget has its data, with the word in the page's language, not \"Loading...\"", async () => {
    const r = await smallRestaurant({ locale: "en" });
    const cases = [
      ["it", "Caricamento…"],
      ["fr", "Chargement…"],
      ["de", "Wird geladen…"],
      ["es", "Cargando…"],
      ["en", "Loading…"],
    ] as const;
    for (const [locale, text] of cases) {
      const book = (await page(`/p/${r.publicKey}/book?locale=${locale}`)).text;
      expect(book).toContain(`${skeleton(text)}</booking-engine>`);
      // the shape stands still: a pulse would have the compositor draw every frame while the script loads
      expect(book).not.toMatch(/animation|@keyframes/);
      expect((await page(`/p/${r.publicKey}/services?locale=${locale}`)).text).toContain(
        `<p slot="loading" role="status" class="be-loading">${text}</p></booking-engine>`,
      );
    }
  });

  it("asks for the page's own code and its language's table beside the widget's module, not after it", async () => {
    const r = await smallRestaurant({ locale: "en" });
    const preloaded = (html: string) =>
      [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!);
    const book = preloaded((await page(`/p/${r.publicKey}/book?locale=it`)).text);
    expect(book).toHaveLength(2);
    expect(book[0]).toMatch(/^\/widget\/pages\/book-page-[\w-]+\.js$/);
    expect(book[1]).toMatch(/^\/widget\/locales\/it-[\w-]+\.js$/);
    // English is the widget's own: no table to load
    expect(preloaded((await page(`/p/${r.publicKey}/book?locale=en`)).text)).toEqual([book[0]]);
    const services = preloaded((await page(`/p/${r.publicKey}/services?locale=en`)).text);
    expect(services[0]).toMatch(/^\/widget\/pages\/services-page-[\w-]+\.js$/);
    // each is a module the assets serve (in front of the Worker on Cloudflare)
    for (const href of [...book, ...services]) {
      const res = await env.ASSETS.fetch(`https://assets.test${href}`);
      expect(res.status, href).toBe(200);
      expect(res.headers.get("Content-Type")).toMatch(/javascript/);
    }
  });

  it("the booking page asks for the restaurant and its first two weeks of times itself, with the widget's own URLs", async () => {
    const r = await smallRestaurant({ locale: "en", max_online_pax: 6 });
    const profile = (await r.guest.call("")).json.data[0];
    const base = `/api/v2/public/${r.publicKey}`;
    const links = async (path: string) =>
      [
        ...(await page(`/p/${r.publicKey}${path}`)).text.matchAll(
          /<link rel="preload" href="([^"]+)" as="fetch" crossorigin>/g,
        ),
      ].map((m) => m[1]!.replace(/&amp;/g, "&"));
    // no date: the first day bookable online, as the widget asks for it beside the profile
    expect(await links("/book?locale=it")).toEqual([
      `${base}?locale=it`,
      `${base}/slots?pax=2&days=14&locale=it`,
    ]);
    expect(await links("/book?pax=4")).toEqual([
      `${base}?locale=en`,
      `${base}/slots?pax=4&days=14&locale=en`,
    ]);
    const first = await r.guest.call("/slots?pax=2&days=14&locale=it");
    expect(first.json.data[0].date).toBe(profile.first_date);
    // No more than the restaurant takes online, as the widget clamps it.
    expect((await links("/book?pax=9"))[1]).toContain("?pax=6&");
    expect(await links("")).toEqual([]);
  });

  it("keeps the party size (?pax=) and the embedding site's accent (?accent=), strictly checked", async () => {
    const r = await smallRestaurant();
    const ok = await page(`/p/${r.publicKey}/book?pax=4&accent=%23225522`);
    expect(ok.text).toContain(
      `page="book" locale="en" hosted pax="4" style="--be-accent: #225522">${skeleton("Loading…")}</booking-engine>`,
    );
    const odd = await page(`/p/${r.publicKey}/book?pax=4%22%20onload%3D1&accent=red;background:url(x)`);
    expect(odd.text).toContain(`page="book" locale="en" hosted>${skeleton("Loading…")}</booking-engine>`);
  });

  it("describes the welcome page with the welcome message in the page's language (settings.translations)", async () => {
    const r = await smallRestaurant({
      welcome_message: "Welcome!",
      translations: { it: { welcome_message: "Benvenuti!" } },
    });
    expect((await page(`/p/${r.publicKey}?locale=it`)).text).toContain(
      '<meta name="description" content="Benvenuti!">',
    );
    expect((await page(`/p/${r.publicKey}?locale=fr`)).text).toContain(
      '<meta name="description" content="Welcome!">',
    );
  });

  it("escapes the restaurant's name, message and the token", async () => {
    const r = await smallRestaurant({ welcome_message: '"><img src=x onerror=alert(1)>' });
    const name = `<script>alert("x")</script> & 'Co'`;
    expect(
      (
        await r.client.call(`/api/v2/properties/${r.client.propertyId}`, {
          method: "PUT",
          body: { name, phone: "+39 02 1234" },
          property: undefined,
        })
      ).status,
    ).toBe(200);
    for (const path of ["", "/book", `/manage/"><svg onload=alert(1)>`]) {
      const res = await page(`/p/${r.publicKey}${path.replace(/[<>"]/g, encodeURIComponent)}`);
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/<script>alert|<img|<svg/);
      expect(res.text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;");
    }
  });

  it("an unknown, deleted or disabled restaurant is a 404 page", async () => {
    const r = await smallRestaurant();
    await r.client.call(`/api/v2/properties/${r.client.propertyId}`, {
      method: "PUT",
      body: { enabled: false },
      property: undefined,
    });
    for (const path of [
      "/p/pk_nobody",
      `/p/${r.publicKey}`,
      `/p/${r.publicKey}/book`,
      `/p/${r.publicKey}/manage/abc`,
    ]) {
      const res = await page(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
      expect(res.text).toContain('<html lang="en">');
      expect(res.text).toContain("<title>Restaurant not found</title>");
      expect(res.text).not.toContain("<booking-engine");
    }
  });
});
