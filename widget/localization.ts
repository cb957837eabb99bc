/**
 * @lit/localize in runtime mode. The source locale (English) is in the module; each other
 * locale's table is a chunk of its own, loaded only when a page speaks it, so a first load
 * carries one language, not five.
 */
import { configureLocalization } from "@lit/localize";

export { LOCALES, type Locale, pickLocale, supported } from "./languages.js";

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
