/**
 * @lit/localize in runtime mode. The source locale (English) is in the module; each other
 * locale's table is a chunk of its own, loaded only when a page speaks it, so a first load
 * carries one language, not five.
 */
import { configureLocalization } from "@lit/localize";

export const LOCALES = ["en", "it", "fr", "de", "es"] as const;
export type Locale = (typeof LOCALES)[number];

// Static specifiers, so that Vite makes one chunk per locale and the test server finds the files.
const tables = {
  it: () => import("./locales/it.js"),
  fr: () => import("./locales/fr.js"),
  de: () => import("./locales/de.js"),
  es: () => import("./locales/es.js"),
};

export const { getLocale, setLocale } = configureLocalization({
  sourceLocale: "en",
  targetLocales: ["it", "fr", "de", "es"],
  loadLocale: (locale) => tables[locale as keyof typeof tables](),
});

/** The supported locale of a BCP 47 tag ("it-CH" -> "it"), or undefined. */
export function supported(tag: string | null | undefined): Locale | undefined {
  const lang = tag?.toLowerCase().split(/[-_]/)[0];
  return lang && (LOCALES as readonly string[]).includes(lang) ? (lang as Locale) : undefined;
}

/** The best supported locale among BCP 47 tags, English otherwise. */
export function pickLocale(...tags: (string | null | undefined)[]): Locale {
  for (const tag of tags) {
    const locale = supported(tag);
    if (locale) return locale;
  }
  return "en";
}
