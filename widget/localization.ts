/**
 * @lit/localize in runtime mode with the five locale tables inlined (they are small), so the
 * widget stays one ES module. The source locale is English.
 */
import { configureLocalization } from "@lit/localize";
import * as de from "./locales/de.js";
import * as es from "./locales/es.js";
import * as fr from "./locales/fr.js";
import * as it from "./locales/it.js";

export const LOCALES = ["en", "it", "fr", "de", "es"] as const;
export type Locale = (typeof LOCALES)[number];

const tables = { it, fr, de, es };

export const { getLocale, setLocale } = configureLocalization({
  sourceLocale: "en",
  targetLocales: ["it", "fr", "de", "es"],
  loadLocale: async (locale) => tables[locale as keyof typeof tables],
});

/** The best supported locale for a BCP 47 tag ("it-CH" -> "it"), English otherwise. */
export function pickLocale(...tags: (string | null | undefined)[]): Locale {
  for (const tag of tags) {
    const lang = tag?.toLowerCase().split(/[-_]/)[0];
    if (lang && (LOCALES as readonly string[]).includes(lang)) return lang as Locale;
  }
  return "en";
}
