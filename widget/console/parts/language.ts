/**
 * The console's own language chooser: the choice is kept per browser (localStorage), and until
 * someone chooses, the console speaks the restaurant's language.
 */
import { msg } from "@lit/localize";
import { html } from "lit";
import { getLocale, LOCALES, type Locale, setLocale, supported } from "../localization.js";

/** Where this browser keeps the language chosen in the console. */
const LOCALE_KEY = "booking-console.locale";
/** Each language in its own words, as a chooser lists them. */
const LANGUAGE_NAMES: Record<Locale, string> = {
  en: "English",
  it: "Italiano",
  fr: "Français",
  de: "Deutsch",
  es: "Español",
};

/** The language chosen in this browser, if any. */
export function chosenLocale(): Locale | undefined {
  try {
    return supported(localStorage.getItem(LOCALE_KEY));
  } catch {
    return undefined;
  }
}

async function choose(e: Event, then: () => void) {
  const locale = supported((e.target as HTMLSelectElement).value);
  if (!locale) return;
  try {
    localStorage.setItem(LOCALE_KEY, locale);
  } catch {
    // storage refused (private mode): the choice lasts until the page is left
  }
  then();
  await setLocale(locale);
}

/** The chooser; `then` runs once a language is chosen, before it is applied. */
export function languageChooser(then: () => void) {
  const current = getLocale();
  return html`<label class="language">${msg("Language", { id: "console.language" })}
    <select @change=${(e: Event) => choose(e, then)}>
      ${LOCALES.map((l) => html`<option value=${l} lang=${l} ?selected=${l === current}>${LANGUAGE_NAMES[l]}</option>`)}
    </select>
  </label>`;
}
