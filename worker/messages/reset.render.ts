/**
 * The console's password reset message, to the restaurant's own address, in its language: a
 * single-use link to choose a new password, how long it works, and what to do when nobody asked.
 * Pure; laid out like every other message (layout.ts), greeting and footer from texts.ts.
 */
import { asHtml, asText, type Brand } from "./layout";
import { TEXTS } from "./texts";
import type { Locale } from "./types";

interface ResetTexts {
  subject: (restaurant: string) => string;
  body: (minutes: number) => string[];
  button: string;
}

const RESET: Record<Locale, ResetTexts> = {
  en: {
    subject: (r) => `${r}: choose a new console password`,
    body: (m) => [
      "Someone asked to reset the password of the restaurant's console. Choose a new one with the link below.",
      `The link works once, for ${m} minutes. Every console still signed in is signed out when the password changes.`,
      "If you did not ask for it, ignore this message: the password stays as it is.",
    ],
    button: "Choose a new password",
  },
  it: {
    subject: (r) => `${r}: scegli una nuova password della console`,
    body: (m) => [
      "È stato chiesto di reimpostare la password della console del ristorante. Scegline una nuova con il link qui sotto.",
      `Il link funziona una sola volta, per ${m} minuti. Quando la password cambia, ogni console ancora collegata viene scollegata.`,
      "Se non l'hai chiesto tu, ignora questo messaggio: la password resta quella di prima.",
    ],
    button: "Scegli una nuova password",
  },
  fr: {
    subject: (r) => `${r} : choisissez un nouveau mot de passe pour la console`,
    body: (m) => [
      "Quelqu'un a demandé à réinitialiser le mot de passe de la console du restaurant. Choisissez-en un nouveau avec le lien ci-dessous.",
      `Le lien fonctionne une seule fois, pendant ${m} minutes. Quand le mot de passe change, toute console encore connectée est déconnectée.`,
      "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : le mot de passe reste inchangé.",
    ],
    button: "Choisir un nouveau mot de passe",
  },
  de: {
    subject: (r) => `${r}: neues Passwort für die Konsole wählen`,
    body: (m) => [
      "Jemand hat angefordert, das Passwort der Konsole des Restaurants zurückzusetzen. Wählen Sie über den Link unten ein neues.",
      `Der Link funktioniert einmal, ${m} Minuten lang. Wenn sich das Passwort ändert, wird jede noch angemeldete Konsole abgemeldet.`,
      "Wenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht: Das Passwort bleibt unverändert.",
    ],
    button: "Neues Passwort wählen",
  },
  es: {
    subject: (r) => `${r}: elige una nueva contraseña de la consola`,
    body: (m) => [
      "Alguien ha pedido restablecer la contraseña de la consola del restaurante. Elige una nueva con el enlace de abajo.",
      `El enlace funciona una sola vez, durante ${m} minutos. Cuando la contraseña cambia, se cierra la sesión de toda consola abierta.`,
      "Si no lo has pedido tú, ignora este mensaje: la contraseña sigue siendo la misma.",
    ],
    button: "Elegir una nueva contraseña",
  },
};

export interface ResetInput {
  locale: Locale;
  brand: Brand;
  /** the reset page, with its token */
  link: string;
  /** how long the link works */
  minutes: number;
}

export function renderReset(i: ResetInput): { subject: string; text: string; html: string } {
  const t = RESET[i.locale];
  const words = TEXTS[i.locale];
  const letter = {
    subject: t.subject(i.brand.name),
    greeting: words.greeting(i.brand.name),
    block: {
      paragraphs: t.body(i.minutes),
      rows: [],
      buttons: [{ label: t.button, url: i.link }],
      calendar: [],
    },
    signature: "",
    footer: words.footer(i.brand.name),
  };
  return { subject: letter.subject, text: asText(letter), html: asHtml(i.locale, i.brand, letter) };
}
