/**
 * "Your table is ready": the email a party on the walk-in waiting list gets when the host calls
 * them back, in the restaurant's language. Pure; laid out like every other message (layout.ts).
 */
import { asHtml, asText, type Brand } from "./layout";
import { TEXTS } from "./texts";
import type { Locale } from "./types";

interface ReadyTexts {
  subject: (restaurant: string) => string;
  body: (restaurant: string, pax: number) => string[];
}

const READY: Record<Locale, ReadyTexts> = {
  en: {
    subject: (r) => `${r}: your table is ready`,
    body: (r, p) => [
      `Your table for ${p} at ${r} is ready. Please come to the host stand now.`,
      "If you no longer need it, simply let the staff know.",
    ],
  },
  it: {
    subject: (r) => `${r}: il vostro tavolo è pronto`,
    body: (r, p) => [
      `Il vostro tavolo per ${p} da ${r} è pronto. Venite pure all'accoglienza.`,
      "Se non vi serve più, basta avvisare il personale.",
    ],
  },
  fr: {
    subject: (r) => `${r} : votre table est prête`,
    body: (r, p) => [
      `Votre table pour ${p} chez ${r} est prête. Présentez-vous à l'accueil dès maintenant.`,
      "Si vous n'en avez plus besoin, prévenez simplement le personnel.",
    ],
  },
  de: {
    subject: (r) => `${r}: Ihr Tisch ist bereit`,
    body: (r, p) => [
      `Ihr Tisch für ${p} im ${r} ist bereit. Bitte kommen Sie jetzt zum Empfang.`,
      "Wenn Sie ihn nicht mehr brauchen, sagen Sie einfach dem Personal Bescheid.",
    ],
  },
  es: {
    subject: (r) => `${r}: su mesa está lista`,
    body: (r, p) => [
      `Su mesa para ${p} en ${r} está lista. Acérquese ahora a la recepción.`,
      "Si ya no la necesita, avise al personal.",
    ],
  },
};

export interface ReadyInput {
  locale: Locale;
  brand: Brand;
  /** the party's name, when given */
  name: string | null;
  pax: number;
}

export function renderReady(i: ReadyInput): { subject: string; text: string; html: string } {
  const t = READY[i.locale];
  const words = TEXTS[i.locale];
  const letter = {
    subject: t.subject(i.brand.name),
    greeting: words.greeting(i.name),
    block: { paragraphs: t.body(i.brand.name, i.pax), rows: [], buttons: [], calendar: [] },
    signature: "",
    footer: words.footer(i.brand.name),
  };
  return { subject: letter.subject, text: asText(letter), html: asHtml(i.locale, i.brand, letter) };
}
