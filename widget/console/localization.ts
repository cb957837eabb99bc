/**
 * The console's @lit/localize setup: the widget's five languages (../languages.ts), with tables
 * of the console's own (generated from console/xliff into console/locales), each a chunk loaded
 * on demand.
 */
import { configureLocalization } from "@lit/localize";

export { LOCALES, type Locale, pickLocale, supported } from "../languages.js";

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
