/**
 * The widget's chunks a hosted page will load (its page's code and its language's table), read
 * from widget/preload.json, which the widget's build writes beside them with their hashed names.
 * Read once per isolate through the assets binding; without it (assets not built) a page simply
 * preloads nothing.
 */
import type { Locale } from "./guest";
import type { Page } from "./pages.shell";

interface PreloadMap {
  pages: Partial<Record<Page, string[]>>;
  locales: Partial<Record<Locale, string>>;
}

let map: Promise<PreloadMap | undefined> | undefined;

async function readMap(assets: Fetcher | undefined): Promise<PreloadMap | undefined> {
  const res = await assets?.fetch("https://assets.invalid/widget/preload.json").catch(() => undefined);
  if (!res?.ok) return undefined;
  return (await res.json().catch(() => undefined)) as PreloadMap | undefined;
}

/** The addresses of the modules the page's widget imports first, in the page's language. */
export async function pageModules(
  assets: Fetcher | undefined,
  page: Page,
  locale: Locale,
): Promise<string[]> {
  map ??= readMap(assets).then((m) => {
    if (!m) map = undefined; // not built yet: ask again next time
    return m;
  });
  const m = await map;
  if (!m) return [];
  const language = m.locales[locale];
  return [...(m.pages[page] ?? []), ...(language ? [language] : [])];
}
