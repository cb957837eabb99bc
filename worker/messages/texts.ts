/** The words of every message in the widget's five languages. Pure. */
import type { Occasion, ReservationStatus } from "../../shared/schemas";
import type { Locale, Template } from "./types";

/** What a sentence may mention, already formatted for its language. */
export interface Vars {
  restaurant: string;
  date: string;
  time: string;
  /** "Milano": the city of the restaurant's address, else of its zone ("Rome" for Europe/Rome) */
  city: string;
  party: string;
  guest: string;
  service: string;
  /** change (the guest's and the restaurant's): what it was ("Saturday 5 December 2026, 20:00, 2 people") */
  before: string;
  /** offer: until when the guest may claim it (the offer holds no table), with the city of its clock */
  until: string;
  /** waiting: the latest start of the party's range, formatted as `time`; "": only `time` */
  latest: string;
  waiting: boolean;
  /** how long a waiting-list offer holds, in minutes */
  offerMinutes: number;
}

export interface Texts {
  subject: Record<Template, (v: Vars) => string>;
  /** paragraphs of the body */
  body: Record<Template, (v: Vars) => string[]>;
  party: (pax: number) => string;
  greeting: (name: string | null) => string;
  manage: string;
  calendar: string;
  attached: string;
  claim: string;
  cancelUntil: (when: string) => string;
  noOnlineCancel: string;
  address: string;
  phone: string;
  email: string;
  notes: string;
  status: string;
  /** the summary block's labels */
  date: string;
  time: string;
  partyLabel: string;
  service: string;
  map: string;
  /** the calendar file behind the manage link (the attachment's twin) */
  icsFile: string;
  bookAgain: string;
  /** a cancellation's attachment: the calendar update that removes the entry */
  cancelAttached: string;
  occasion: string;
  allergies: string;
  request: string;
  tables: string;
  occasions: Record<Occasion, string>;
  statuses: Record<ReservationStatus, string>;
  signature: (restaurant: string) => string;
  footer: (restaurant: string) => string;
}

/** A waiting party's times: "19:30–21:00" for a range, else the one time. */
const times = (v: Vars) => (v.latest ? `${v.time}–${v.latest}` : v.time);

const en: Texts = {
  subject: {
    confirmation: (v) => `Your table at ${v.restaurant}: ${v.date}, ${v.time}`,
    waiting: (v) => `Waiting list at ${v.restaurant}: ${v.date}, ${times(v)}`,
    change: (v) => `Your reservation at ${v.restaurant} has changed: ${v.date}, ${v.time}`,
    cancellation: (v) => `Your reservation at ${v.restaurant} is cancelled`,
    reminder: (v) => `Reminder: your table at ${v.restaurant}, ${v.date}, ${v.time}`,
    offer: (v) => `A table is free at ${v.restaurant}: ${v.date}, ${v.time}`,
    restaurant_booking: (v) =>
      `${v.waiting ? "Waiting-list request" : "New online booking"}: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
    restaurant_cancellation: (v) => `Online booking cancelled: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
    restaurant_change: (v) => `Online booking changed: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
  },
  body: {
    confirmation: (v) => [
      `Your table for ${v.party} at ${v.restaurant} is booked for ${v.date} at ${v.time} (${v.city} time).`,
    ],
    waiting: (v) => [
      `You are on the waiting list for ${v.party} at ${v.restaurant} on ${v.date} ${v.latest ? `any time ${times(v)}` : `at ${v.time}`} (${v.city} time).`,
      `No table is held for you yet. If a table for your party frees up ${v.latest ? `at any time ${times(v)}` : `at ${v.time}`}, we email you an offer${v.latest ? " for the earliest time that fits" : ""} (parties in the order they joined the list), valid for ${v.offerMinutes} minutes: claim it and the table is yours if it is still free. The restaurant may also give you a table itself: you then get a confirmation.`,
    ],
    change: (v) => [
      `Your reservation at ${v.restaurant} has changed. It is now for ${v.party} on ${v.date} at ${v.time} (${v.city} time).`,
      `Before: ${v.before}.`,
    ],
    cancellation: (v) => [
      `Your reservation for ${v.party} at ${v.restaurant} on ${v.date} at ${v.time} is cancelled.`,
    ],
    reminder: (v) => [
      `A reminder of your table for ${v.party} at ${v.restaurant} on ${v.date} at ${v.time} (${v.city} time). We look forward to seeing you.`,
    ],
    offer: (v) => [
      `Good news: a table for ${v.party} at ${v.restaurant} is free on ${v.date} at ${v.time} (${v.city} time), a time you asked for on the waiting list.`,
      `Claim it before ${v.until}: the table is yours if it is still free then (the offer holds no table). After that it passes to the next guest on the waiting list.`,
    ],
    restaurant_booking: (v) => [
      `${v.guest} ${v.waiting ? "asked to join the waiting list" : "booked online"} for ${v.party} on ${v.date} at ${v.time} (${v.service}).`,
    ],
    restaurant_cancellation: (v) => [
      `${v.guest} cancelled their online booking for ${v.party} on ${v.date} at ${v.time} (${v.service}).`,
    ],
    restaurant_change: (v) => [
      `${v.guest} changed their online booking: it is now for ${v.party} on ${v.date} at ${v.time} (${v.service}).`,
      `Before: ${v.before}.`,
    ],
  },
  party: (n) => (n === 1 ? "1 person" : `${n} people`),
  greeting: (name) => (name ? `Dear ${name},` : "Hello,"),
  manage: "See, change or cancel your reservation",
  calendar: "Add to calendar",
  attached: "The calendar entry is attached to this email.",
  claim: "Claim the table",
  cancelUntil: (when) => `You can cancel online until ${when}.`,
  noOnlineCancel: "To cancel, please call the restaurant.",
  address: "Address",
  phone: "Phone",
  email: "Email",
  notes: "Notes",
  status: "Status",
  date: "Date",
  time: "Time",
  partyLabel: "Party",
  service: "Service",
  map: "Map",
  icsFile: "Calendar file (.ics)",
  bookAgain: "Book again",
  cancelAttached: "The attached calendar update removes the entry from your calendar.",
  occasion: "Occasion",
  allergies: "Allergies",
  request: "Special request",
  tables: "Table",
  occasions: {
    birthday: "Birthday",
    anniversary: "Anniversary",
    business: "Business meal",
    date: "Date night",
    other: "Other",
  },
  statuses: {
    WAITING: "On the waiting list",
    ACCEPTED: "Booked",
    CONFIRMED: "Confirmed",
    PREPAY: "Awaiting payment",
    CANCELLED: "Cancelled",
    REJECTED: "Declined",
    EXPIRED: "Expired",
    OUTOFORDER: "Out of order",
  },
  signature: (r) => `See you soon,\n${r}`,
  footer: (r) => `This email was sent by the online booking service of ${r}.`,
};

const it: Texts = {
  subject: {
    confirmation: (v) => `Il tuo tavolo da ${v.restaurant}: ${v.date}, ${v.time}`,
    waiting: (v) => `Lista d'attesa da ${v.restaurant}: ${v.date}, ${times(v)}`,
    change: (v) => `La tua prenotazione da ${v.restaurant} è cambiata: ${v.date}, ${v.time}`,
    cancellation: (v) => `La tua prenotazione da ${v.restaurant} è cancellata`,
    reminder: (v) => `Promemoria: il tuo tavolo da ${v.restaurant}, ${v.date}, ${v.time}`,
    offer: (v) => `Si è liberato un tavolo da ${v.restaurant}: ${v.date}, ${v.time}`,
    restaurant_booking: (v) =>
      `${v.waiting ? "Richiesta di lista d'attesa" : "Nuova prenotazione online"}: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
    restaurant_cancellation: (v) =>
      `Prenotazione online cancellata: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
    restaurant_change: (v) => `Prenotazione online modificata: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
  },
  body: {
    confirmation: (v) => [
      `Il tuo tavolo per ${v.party} da ${v.restaurant} è prenotato per ${v.date} alle ${v.time} (ora di ${v.city}).`,
    ],
    waiting: (v) => [
      `Sei in lista d'attesa per ${v.party} da ${v.restaurant} ${v.date} ${v.latest ? `a qualsiasi ora tra le ${v.time} e le ${v.latest}` : `alle ${v.time}`} (ora di ${v.city}).`,
      `Per ora nessun tavolo è riservato per te. Se si libera un tavolo per il tuo gruppo ${v.latest ? `tra le ${v.time} e le ${v.latest}` : `alle ${v.time}`}, ti mandiamo un'offerta${v.latest ? " per il primo orario libero" : ""} per email (nell'ordine di iscrizione alla lista), valida ${v.offerMinutes} minuti: accettala e il tavolo è tuo se è ancora libero. Anche il ristorante può assegnarti un tavolo: riceverai allora una conferma.`,
    ],
    change: (v) => [
      `La tua prenotazione da ${v.restaurant} è cambiata. Ora è per ${v.party} ${v.date} alle ${v.time} (ora di ${v.city}).`,
      `Prima: ${v.before}.`,
    ],
    cancellation: (v) => [
      `La tua prenotazione per ${v.party} da ${v.restaurant} ${v.date} alle ${v.time} è cancellata.`,
    ],
    reminder: (v) => [
      `Ti ricordiamo il tuo tavolo per ${v.party} da ${v.restaurant} ${v.date} alle ${v.time} (ora di ${v.city}). Ti aspettiamo.`,
    ],
    offer: (v) => [
      `Buone notizie: da ${v.restaurant} si è liberato un tavolo per ${v.party} ${v.date} alle ${v.time} (ora di ${v.city}), un orario che avevi chiesto in lista d'attesa.`,
      `Prendilo entro ${v.until}: il tavolo è tuo se è ancora libero (l'offerta non lo tiene da parte). Dopo passa al prossimo ospite in lista d'attesa.`,
    ],
    restaurant_booking: (v) => [
      `${v.guest} ${v.waiting ? "ha chiesto la lista d'attesa" : "ha prenotato online"} per ${v.party} ${v.date} alle ${v.time} (${v.service}).`,
    ],
    restaurant_cancellation: (v) => [
      `${v.guest} ha cancellato la prenotazione online per ${v.party} ${v.date} alle ${v.time} (${v.service}).`,
    ],
    restaurant_change: (v) => [
      `${v.guest} ha modificato la prenotazione online: ora è per ${v.party} ${v.date} alle ${v.time} (${v.service}).`,
      `Prima: ${v.before}.`,
    ],
  },
  party: (n) => (n === 1 ? "1 persona" : `${n} persone`),
  greeting: (name) => (name ? `Gentile ${name},` : "Buongiorno,"),
  manage: "Vedi, modifica o cancella la prenotazione",
  calendar: "Aggiungi al calendario",
  attached: "L'evento per il calendario è allegato a questa email.",
  claim: "Prendi il tavolo",
  cancelUntil: (when) => `Puoi cancellare online fino a ${when}.`,
  noOnlineCancel: "Per cancellare, chiama il ristorante.",
  address: "Indirizzo",
  phone: "Telefono",
  email: "Email",
  notes: "Note",
  status: "Stato",
  date: "Data",
  time: "Ora",
  partyLabel: "Persone",
  service: "Servizio",
  map: "Mappa",
  icsFile: "File del calendario (.ics)",
  bookAgain: "Prenota di nuovo",
  cancelAttached: "L'aggiornamento allegato toglie l'evento dal tuo calendario.",
  occasion: "Occasione",
  allergies: "Allergie",
  request: "Richiesta speciale",
  tables: "Tavolo",
  occasions: {
    birthday: "Compleanno",
    anniversary: "Anniversario",
    business: "Pranzo di lavoro",
    date: "Appuntamento",
    other: "Altro",
  },
  statuses: {
    WAITING: "In lista d'attesa",
    ACCEPTED: "Prenotato",
    CONFIRMED: "Confermato",
    PREPAY: "In attesa di pagamento",
    CANCELLED: "Cancellato",
    REJECTED: "Rifiutato",
    EXPIRED: "Scaduto",
    OUTOFORDER: "Fuori servizio",
  },
  signature: (r) => `A presto,\n${r}`,
  footer: (r) => `Questa email è stata inviata dal servizio di prenotazione online di ${r}.`,
};

const fr: Texts = {
  subject: {
    confirmation: (v) => `Votre table chez ${v.restaurant} : ${v.date}, ${v.time}`,
    waiting: (v) => `Liste d'attente chez ${v.restaurant} : ${v.date}, ${times(v)}`,
    change: (v) => `Votre réservation chez ${v.restaurant} a changé : ${v.date}, ${v.time}`,
    cancellation: (v) => `Votre réservation chez ${v.restaurant} est annulée`,
    reminder: (v) => `Rappel : votre table chez ${v.restaurant}, ${v.date}, ${v.time}`,
    offer: (v) => `Une table s'est libérée chez ${v.restaurant} : ${v.date}, ${v.time}`,
    restaurant_booking: (v) =>
      `${v.waiting ? "Demande de liste d'attente" : "Nouvelle réservation en ligne"} : ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
    restaurant_cancellation: (v) =>
      `Réservation en ligne annulée : ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
    restaurant_change: (v) => `Réservation en ligne modifiée : ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
  },
  body: {
    confirmation: (v) => [
      `Votre table pour ${v.party} chez ${v.restaurant} est réservée le ${v.date} à ${v.time} (heure de ${v.city}).`,
    ],
    waiting: (v) => [
      `Vous êtes sur la liste d'attente pour ${v.party} chez ${v.restaurant} le ${v.date} ${v.latest ? `à tout moment entre ${v.time} et ${v.latest}` : `à ${v.time}`} (heure de ${v.city}).`,
      `Aucune table ne vous est encore réservée. Si une table pour votre groupe se libère ${v.latest ? `entre ${v.time} et ${v.latest}` : `à ${v.time}`}, nous vous envoyons une offre${v.latest ? " pour le premier horaire libre" : ""} par e-mail (dans l'ordre d'inscription sur la liste), valable ${v.offerMinutes} minutes : acceptez-la et la table est à vous si elle est encore libre. Le restaurant peut aussi vous attribuer une table : vous recevez alors une confirmation.`,
    ],
    change: (v) => [
      `Votre réservation chez ${v.restaurant} a changé. Elle est désormais pour ${v.party} le ${v.date} à ${v.time} (heure de ${v.city}).`,
      `Avant : ${v.before}.`,
    ],
    cancellation: (v) => [
      `Votre réservation pour ${v.party} chez ${v.restaurant} le ${v.date} à ${v.time} est annulée.`,
    ],
    reminder: (v) => [
      `Petit rappel de votre table pour ${v.party} chez ${v.restaurant} le ${v.date} à ${v.time} (heure de ${v.city}). Au plaisir de vous accueillir.`,
    ],
    offer: (v) => [
      `Bonne nouvelle : une table pour ${v.party} s'est libérée chez ${v.restaurant} le ${v.date} à ${v.time} (heure de ${v.city}), un horaire demandé sur la liste d'attente.`,
      `Confirmez-la avant ${v.until} : la table est à vous si elle est encore libre (l'offre ne la bloque pas). Ensuite, elle passe au client suivant de la liste d'attente.`,
    ],
    restaurant_booking: (v) => [
      `${v.guest} ${v.waiting ? "demande la liste d'attente" : "a réservé en ligne"} pour ${v.party} le ${v.date} à ${v.time} (${v.service}).`,
    ],
    restaurant_cancellation: (v) => [
      `${v.guest} a annulé sa réservation en ligne pour ${v.party} le ${v.date} à ${v.time} (${v.service}).`,
    ],
    restaurant_change: (v) => [
      `${v.guest} a modifié sa réservation en ligne : elle est désormais pour ${v.party} le ${v.date} à ${v.time} (${v.service}).`,
      `Avant : ${v.before}.`,
    ],
  },
  party: (n) => (n === 1 ? "1 personne" : `${n} personnes`),
  greeting: (name) => (name ? `Bonjour ${name},` : "Bonjour,"),
  manage: "Voir, modifier ou annuler votre réservation",
  calendar: "Ajouter au calendrier",
  attached: "L'événement de calendrier est joint à cet e-mail.",
  claim: "Prendre la table",
  cancelUntil: (when) => `Vous pouvez annuler en ligne jusqu'au ${when}.`,
  noOnlineCancel: "Pour annuler, appelez le restaurant.",
  address: "Adresse",
  phone: "Téléphone",
  email: "E-mail",
  notes: "Remarques",
  status: "Statut",
  date: "Date",
  time: "Heure",
  partyLabel: "Couverts",
  service: "Service",
  map: "Plan",
  icsFile: "Fichier de calendrier (.ics)",
  bookAgain: "Réserver à nouveau",
  cancelAttached: "La mise à jour jointe retire l'événement de votre calendrier.",
  occasion: "Occasion",
  allergies: "Allergies",
  request: "Demande particulière",
  tables: "Table",
  occasions: {
    birthday: "Anniversaire",
    anniversary: "Anniversaire de couple",
    business: "Repas d'affaires",
    date: "Tête-à-tête",
    other: "Autre",
  },
  statuses: {
    WAITING: "Sur liste d'attente",
    ACCEPTED: "Réservé",
    CONFIRMED: "Confirmé",
    PREPAY: "En attente de paiement",
    CANCELLED: "Annulé",
    REJECTED: "Refusé",
    EXPIRED: "Expiré",
    OUTOFORDER: "Hors service",
  },
  signature: (r) => `À bientôt,\n${r}`,
  footer: (r) => `Cet e-mail a été envoyé par le service de réservation en ligne de ${r}.`,
};

const de: Texts = {
  subject: {
    confirmation: (v) => `Ihr Tisch im ${v.restaurant}: ${v.date}, ${v.time}`,
    waiting: (v) => `Warteliste im ${v.restaurant}: ${v.date}, ${times(v)}`,
    change: (v) => `Ihre Reservierung im ${v.restaurant} wurde geändert: ${v.date}, ${v.time}`,
    cancellation: (v) => `Ihre Reservierung im ${v.restaurant} ist storniert`,
    reminder: (v) => `Erinnerung: Ihr Tisch im ${v.restaurant}, ${v.date}, ${v.time}`,
    offer: (v) => `Ein Tisch ist frei im ${v.restaurant}: ${v.date}, ${v.time}`,
    restaurant_booking: (v) =>
      `${v.waiting ? "Anfrage für die Warteliste" : "Neue Online-Reservierung"}: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
    restaurant_cancellation: (v) =>
      `Online-Reservierung storniert: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
    restaurant_change: (v) => `Online-Reservierung geändert: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
  },
  body: {
    confirmation: (v) => [
      `Ihr Tisch für ${v.party} im ${v.restaurant} ist reserviert: ${v.date} um ${v.time} (Ortszeit ${v.city}).`,
    ],
    waiting: (v) => [
      `Sie stehen auf der Warteliste für ${v.party} im ${v.restaurant} am ${v.date} ${v.latest ? `jederzeit zwischen ${v.time} und ${v.latest}` : `um ${v.time}`} (Ortszeit ${v.city}).`,
      `Noch ist kein Tisch für Sie reserviert. Wird ${v.latest ? `zwischen ${v.time} und ${v.latest}` : `um ${v.time}`} ein Tisch für Ihre Gruppe frei, senden wir Ihnen ein Angebot${v.latest ? " für die früheste freie Zeit" : ""} per E-Mail (in der Reihenfolge der Anmeldung), gültig ${v.offerMinutes} Minuten: Nehmen Sie es an, und der Tisch gehört Ihnen, wenn er noch frei ist. Das Restaurant kann Ihnen auch selbst einen Tisch geben: Dann erhalten Sie eine Bestätigung.`,
    ],
    change: (v) => [
      `Ihre Reservierung im ${v.restaurant} wurde geändert. Sie gilt jetzt für ${v.party} am ${v.date} um ${v.time} (Ortszeit ${v.city}).`,
      `Vorher: ${v.before}.`,
    ],
    cancellation: (v) => [
      `Ihre Reservierung für ${v.party} im ${v.restaurant} am ${v.date} um ${v.time} ist storniert.`,
    ],
    reminder: (v) => [
      `Eine Erinnerung an Ihren Tisch für ${v.party} im ${v.restaurant} am ${v.date} um ${v.time} (Ortszeit ${v.city}). Wir freuen uns auf Sie.`,
    ],
    offer: (v) => [
      `Gute Nachricht: Im ${v.restaurant} ist ein Tisch für ${v.party} am ${v.date} um ${v.time} (Ortszeit ${v.city}) frei geworden, zu einer Zeit, die Sie auf der Warteliste angefragt haben.`,
      `Nehmen Sie ihn vor ${v.until} an: Der Tisch gehört Ihnen, wenn er dann noch frei ist (das Angebot hält ihn nicht frei). Danach geht er an den nächsten Gast auf der Warteliste.`,
    ],
    restaurant_booking: (v) => [
      `${v.guest} hat ${v.waiting ? "die Warteliste angefragt" : "online reserviert"}: ${v.party} am ${v.date} um ${v.time} (${v.service}).`,
    ],
    restaurant_cancellation: (v) => [
      `${v.guest} hat die Online-Reservierung für ${v.party} am ${v.date} um ${v.time} (${v.service}) storniert.`,
    ],
    restaurant_change: (v) => [
      `${v.guest} hat die Online-Reservierung geändert: Sie gilt jetzt für ${v.party} am ${v.date} um ${v.time} (${v.service}).`,
      `Vorher: ${v.before}.`,
    ],
  },
  party: (n) => (n === 1 ? "1 Person" : `${n} Personen`),
  greeting: (name) => (name ? `Guten Tag ${name},` : "Guten Tag,"),
  manage: "Reservierung ansehen, ändern oder stornieren",
  calendar: "Zum Kalender hinzufügen",
  attached: "Der Kalendereintrag ist dieser E-Mail beigefügt.",
  claim: "Tisch annehmen",
  cancelUntil: (when) => `Sie können online stornieren bis ${when}.`,
  noOnlineCancel: "Zum Stornieren rufen Sie bitte das Restaurant an.",
  address: "Adresse",
  phone: "Telefon",
  email: "E-Mail",
  notes: "Anmerkungen",
  status: "Status",
  date: "Datum",
  time: "Uhrzeit",
  partyLabel: "Personen",
  service: "Angebot",
  map: "Karte",
  icsFile: "Kalenderdatei (.ics)",
  bookAgain: "Erneut reservieren",
  cancelAttached: "Die beigefügte Kalenderaktualisierung entfernt den Eintrag aus Ihrem Kalender.",
  occasion: "Anlass",
  allergies: "Allergien",
  request: "Besonderer Wunsch",
  tables: "Tisch",
  occasions: {
    birthday: "Geburtstag",
    anniversary: "Jahrestag",
    business: "Geschäftsessen",
    date: "Date",
    other: "Anderes",
  },
  statuses: {
    WAITING: "Auf der Warteliste",
    ACCEPTED: "Reserviert",
    CONFIRMED: "Bestätigt",
    PREPAY: "Zahlung ausstehend",
    CANCELLED: "Storniert",
    REJECTED: "Abgelehnt",
    EXPIRED: "Abgelaufen",
    OUTOFORDER: "Außer Betrieb",
  },
  signature: (r) => `Bis bald,\n${r}`,
  footer: (r) => `Diese E-Mail wurde vom Online-Reservierungsdienst von ${r} gesendet.`,
};

const es: Texts = {
  subject: {
    confirmation: (v) => `Tu mesa en ${v.restaurant}: ${v.date}, ${v.time}`,
    waiting: (v) => `Lista de espera en ${v.restaurant}: ${v.date}, ${times(v)}`,
    change: (v) => `Tu reserva en ${v.restaurant} ha cambiado: ${v.date}, ${v.time}`,
    cancellation: (v) => `Tu reserva en ${v.restaurant} está cancelada`,
    reminder: (v) => `Recordatorio: tu mesa en ${v.restaurant}, ${v.date}, ${v.time}`,
    offer: (v) => `Hay una mesa libre en ${v.restaurant}: ${v.date}, ${v.time}`,
    restaurant_booking: (v) =>
      `${v.waiting ? "Solicitud de lista de espera" : "Nueva reserva online"}: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
    restaurant_cancellation: (v) => `Reserva online cancelada: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
    restaurant_change: (v) => `Reserva online modificada: ${v.guest}, ${v.party}, ${v.date} ${v.time}`,
  },
  body: {
    confirmation: (v) => [
      `Tu mesa para ${v.party} en ${v.restaurant} está reservada para el ${v.date} a las ${v.time} (hora de ${v.city}).`,
    ],
    waiting: (v) => [
      `Estás en la lista de espera para ${v.party} en ${v.restaurant} el ${v.date} ${v.latest ? `a cualquier hora entre las ${v.time} y las ${v.latest}` : `a las ${v.time}`} (hora de ${v.city}).`,
      `Todavía no hay ninguna mesa reservada para ti. Si se libera una mesa para tu grupo ${v.latest ? `entre las ${v.time} y las ${v.latest}` : `a las ${v.time}`}, te enviamos una oferta${v.latest ? " para la primera hora libre" : ""} por correo (por orden de llegada a la lista), válida ${v.offerMinutes} minutos: acéptala y la mesa es tuya si sigue libre. El restaurante también puede darte mesa directamente: entonces recibirás una confirmación.`,
    ],
    change: (v) => [
      `Tu reserva en ${v.restaurant} ha cambiado. Ahora es para ${v.party} el ${v.date} a las ${v.time} (hora de ${v.city}).`,
      `Antes: ${v.before}.`,
    ],
    cancellation: (v) => [
      `Tu reserva para ${v.party} en ${v.restaurant} el ${v.date} a las ${v.time} está cancelada.`,
    ],
    reminder: (v) => [
      `Te recordamos tu mesa para ${v.party} en ${v.restaurant} el ${v.date} a las ${v.time} (hora de ${v.city}). Te esperamos.`,
    ],
    offer: (v) => [
      `Buenas noticias: se ha liberado una mesa para ${v.party} en ${v.restaurant} el ${v.date} a las ${v.time} (hora de ${v.city}), una hora que pediste en la lista de espera.`,
      `Confírmala antes de ${v.until}: la mesa es tuya si sigue libre (la oferta no la reserva). Después pasa al siguiente cliente de la lista de espera.`,
    ],
    restaurant_booking: (v) => [
      `${v.guest} ${v.waiting ? "ha pedido la lista de espera" : "ha reservado online"} para ${v.party} el ${v.date} a las ${v.time} (${v.service}).`,
    ],
    restaurant_cancellation: (v) => [
      `${v.guest} ha cancelado su reserva online para ${v.party} el ${v.date} a las ${v.time} (${v.service}).`,
    ],
    restaurant_change: (v) => [
      `${v.guest} ha modificado su reserva online: ahora es para ${v.party} el ${v.date} a las ${v.time} (${v.service}).`,
      `Antes: ${v.before}.`,
    ],
  },
  party: (n) => (n === 1 ? "1 persona" : `${n} personas`),
  greeting: (name) => (name ? `Hola, ${name}:` : "Hola:"),
  manage: "Ver, cambiar o cancelar tu reserva",
  calendar: "Añadir al calendario",
  attached: "El evento de calendario va adjunto a este correo.",
  claim: "Quedarme la mesa",
  cancelUntil: (when) => `Puedes cancelar online hasta el ${when}.`,
  noOnlineCancel: "Para cancelar, llama al restaurante.",
  address: "Dirección",
  phone: "Teléfono",
  email: "Correo",
  notes: "Notas",
  status: "Estado",
  date: "Fecha",
  time: "Hora",
  partyLabel: "Personas",
  service: "Servicio",
  map: "Mapa",
  icsFile: "Archivo de calendario (.ics)",
  bookAgain: "Reservar de nuevo",
  cancelAttached: "La actualización adjunta quita el evento de tu calendario.",
  occasion: "Ocasión",
  allergies: "Alergias",
  request: "Petición especial",
  tables: "Mesa",
  occasions: {
    birthday: "Cumpleaños",
    anniversary: "Aniversario",
    business: "Comida de negocios",
    date: "Cita",
    other: "Otra",
  },
  statuses: {
    WAITING: "En lista de espera",
    ACCEPTED: "Reservada",
    CONFIRMED: "Confirmada",
    PREPAY: "Pendiente de pago",
    CANCELLED: "Cancelada",
    REJECTED: "Rechazada",
    EXPIRED: "Caducada",
    OUTOFORDER: "Fuera de servicio",
  },
  signature: (r) => `Hasta pronto,\n${r}`,
  footer: (r) => `Este correo lo ha enviado el servicio de reservas online de ${r}.`,
};

export const TEXTS: Record<Locale, Texts> = { en, it, fr, de, es };
