/**
 * Asks for a page's chunks and its language's table as soon as the element knows them, beside the
 * restaurant's profile, instead of one after another (page, then what it imports, then the table
 * once the profile has named the language). The hosted pages list them in their head; a page that
 * embeds the widget with a script tag can not, so the module does it for itself.
 */

/** The build writes the map of its hashed chunks here, relative to this module (scripts/build-widget.mjs). */
const CHUNKS = "__BOOKING_ENGINE_CHUNKS__";

interface ChunkMap {
  pages: Record<string, string[]>;
  locales: Record<string, string>;
}

let map: ChunkMap | null | undefined;

/** The build's map; null from the sources (tests, development), which have no chunks. */
function chunkMap(): ChunkMap | null {
  if (map === undefined) {
    try {
      map = JSON.parse(CHUNKS) as ChunkMap;
    } catch {
      map = null;
    }
  }
  return map;
}

/** Adds a modulepreload for each chunk the page loads first, and for the locale's table when it is known. */
export function preloadChunks(page: string, locale: string | undefined): void {
  const chunks = chunkMap();
  if (!chunks) return;
  const table = locale ? chunks.locales[locale] : undefined;
  const present = new Set(
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.href),
  );
  for (const file of [...(chunks.pages[page] ?? []), ...(table ? [table] : [])]) {
    const href = new URL(file, import.meta.url).href;
    if (present.has(href)) continue;
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.append(link);
  }
}
