/**
 * The five languages of the browser screens and how a page picks one: pure, so the widget and the
 * console each configure @lit/localize with tables of their own and share only this.
 */
export const LOCALES = ["en", "it", "fr", "de", "es"] as const;
export type Locale = (typeof LOCALES)[number];

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
