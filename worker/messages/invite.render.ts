/**
 * A staff invitation, to the invitee, in the restaurant's language: who invites them to what, with
 * which role, a single-use link to choose their name and password, and how long it works. Pure;
 * laid out like every other message (layout.ts), greeting and footer from texts.ts.
 */
import { asHtml, asText, type Brand } from "./layout";
import { TEXTS } from "./texts";
import type { Locale } from "./types";

type RoleWord = Record<"owner" | "manager" | "host", string>;

interface InviteTexts {
  subject: (restaurant: string) => string;
  body: (restaurant: string, role: string, days: number) => string[];
  button: string;
  roles: RoleWord;
}

const INVITE: Record<Locale, InviteTexts> = {
  en: {
    subject: (r) => `${r} invites you to its console`,
    body: (r, role, d) => [
      `${r} invites you to its reservation console as ${role}. Choose your name and password with the link below: then you sign in with this email address.`,
      `The link works once, for ${d} days.`,
      "If you did not expect it, ignore this message.",
    ],
    button: "Accept the invitation",
    roles: { owner: "an owner", manager: "a manager", host: "a host" },
  },
  it: {
    subject: (r) => `${r} ti invita nella sua console`,
    body: (r, role, d) => [
      `${r} ti invita nella sua console delle prenotazioni come ${role}. Scegli nome e password con il link qui sotto: poi accedi con questo indirizzo email.`,
      `Il link funziona una sola volta, per ${d} giorni.`,
      "Se non te lo aspettavi, ignora questo messaggio.",
    ],
    button: "Accetta l'invito",
    roles: { owner: "titolare", manager: "responsabile", host: "addetto all'accoglienza" },
  },
  fr: {
    subject: (r) => `${r} vous invite dans sa console`,
    body: (r, role, d) => [
      `${r} vous invite dans sa console de réservations en tant que ${role}. Choisissez votre nom et votre mot de passe avec le lien ci-dessous : vous vous connecterez ensuite avec cette adresse e-mail.`,
      `Le lien fonctionne une seule fois, pendant ${d} jours.`,
      "Si vous ne vous y attendiez pas, ignorez ce message.",
    ],
    button: "Accepter l'invitation",
    roles: { owner: "propriétaire", manager: "responsable", host: "hôte d'accueil" },
  },
  de: {
    subject: (r) => `${r} lädt Sie in seine Konsole ein`,
    body: (r, role, d) => [
      `${r} lädt Sie als ${role} in seine Reservierungskonsole ein. Wählen Sie über den Link unten Ihren Namen und Ihr Passwort: Danach melden Sie sich mit dieser E-Mail-Adresse an.`,
      `Der Link funktioniert einmal, ${d} Tage lang.`,
      "Wenn Sie das nicht erwartet haben, ignorieren Sie diese Nachricht.",
    ],
    button: "Einladung annehmen",
    roles: { owner: "Inhaber", manager: "Manager", host: "Gastgeber" },
  },
  es: {
    subject: (r) => `${r} te invita a su consola`,
    body: (r, role, d) => [
      `${r} te invita a su consola de reservas como ${role}. Elige tu nombre y contraseña con el enlace de abajo: después entrarás con esta dirección de correo.`,
      `El enlace funciona una sola vez, durante ${d} días.`,
      "Si no lo esperabas, ignora este mensaje.",
    ],
    button: "Aceptar la invitación",
    roles: { owner: "propietario", manager: "encargado", host: "anfitrión" },
  },
};

export interface InviteInput {
  locale: Locale;
  brand: Brand;
  /** the invitation page, with its token */
  link: string;
  days: number;
  role: string;
  /** the invitee's name, when the owner gave one */
  name: string | null;
}

export function renderInvite(i: InviteInput): { subject: string; text: string; html: string } {
  const t = INVITE[i.locale];
  const words = TEXTS[i.locale];
  const role = t.roles[i.role as keyof RoleWord] ?? i.role;
  const letter = {
    subject: t.subject(i.brand.name),
    greeting: words.greeting(i.name),
    block: {
      paragraphs: t.body(i.brand.name, role, i.days),
      rows: [],
      buttons: [{ label: t.button, url: i.link }],
      calendar: [],
    },
    signature: "",
    footer: words.footer(i.brand.name),
  };
  return { subject: letter.subject, text: asText(letter), html: asHtml(i.locale, i.brand, letter) };
}
