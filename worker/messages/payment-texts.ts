/**
 * The words of the messages about a booking's money, in the widget's five languages (the widget's
 * pay step says the same things in the same words). Pure.
 */
import type { Locale } from "./types";

/** The templates about money, told to the guest only. */
export type PaymentTemplate = "payment_due" | "payment_refund" | "payment_no_show_fee" | "payment_expired";

/** What a sentence about money may mention, already formatted for its language. */
export interface MoneyVars {
  restaurant: string;
  date: string;
  time: string;
  city: string;
  party: string;
  /** what the booking pays (deposit, prepay) */
  amount: string;
  /** guarantee: what a no-show costs */
  fee: string;
  /** this refund, or the no-show fee charged */
  moved: string;
  /** until when the booking can be paid, with its city */
  due: string;
  /** until when a guest's cancellation is refunded in full, with its city */
  refundBy: string;
  mode: "deposit" | "prepay" | "guarantee";
}

export interface PaymentTexts {
  subject: Record<PaymentTemplate, (v: MoneyVars) => string>;
  body: Record<PaymentTemplate, (v: MoneyVars) => string[]>;
  /** the confirmation's line once paid (or the card saved), with the refund rule */
  paid: (v: MoneyVars) => string[];
  /** the pay link's button */
  pay: (v: MoneyVars) => string;
}

const en: PaymentTexts = {
  subject: {
    payment_due: (v) => `To confirm your table at ${v.restaurant}: ${v.date}, ${v.time}`,
    payment_refund: (v) => `Refund of ${v.moved} from ${v.restaurant}`,
    payment_no_show_fee: (v) => `No-show fee charged by ${v.restaurant}`,
    payment_expired: (v) => `Your reservation at ${v.restaurant} has expired unpaid`,
  },
  body: {
    payment_due: (v) => [
      `Your table for ${v.party} at ${v.restaurant} on ${v.date} at ${v.time} (${v.city} time) is held for you, but not confirmed yet.`,
      v.mode === "guarantee"
        ? `To confirm it, save a card as a guarantee: nothing is charged now; a no-show costs ${v.fee}.`
        : `To confirm it, pay the ${v.mode === "prepay" ? "prepayment" : "deposit"} of ${v.amount}.`,
      `Please do so before ${v.due}: after that the table is released.`,
    ],
    payment_refund: (v) => [
      `${v.restaurant} has refunded ${v.moved} for your reservation for ${v.party} on ${v.date} at ${v.time}.`,
      "Your bank usually shows it within 5 to 10 days.",
    ],
    payment_no_show_fee: (v) => [
      `You did not come to your reservation for ${v.party} at ${v.restaurant} on ${v.date} at ${v.time}.`,
      `As the card guarantee said, the no-show fee of ${v.moved} has been charged to the card you saved.`,
    ],
    payment_expired: (v) => [
      `Your reservation for ${v.party} at ${v.restaurant} on ${v.date} at ${v.time} has expired: it was not paid in time, so the table has been released.`,
      "Nothing was charged. You are welcome to book again.",
    ],
  },
  paid: (v) =>
    v.mode === "guarantee"
      ? [`Your card is saved as a guarantee: nothing is charged now; a no-show costs ${v.fee}.`]
      : [
          `${v.mode === "prepay" ? "Prepayment" : "Deposit"} paid: ${v.amount}.`,
          `Full refund if you cancel before ${v.refundBy}; later it is kept.`,
        ],
  pay: (v) => (v.mode === "guarantee" ? "Save a card" : `Pay ${v.amount}`),
};

const it: PaymentTexts = {
  subject: {
    payment_due: (v) => `Per confermare il tuo tavolo da ${v.restaurant}: ${v.date}, ${v.time}`,
    payment_refund: (v) => `Rimborso di ${v.moved} da ${v.restaurant}`,
    payment_no_show_fee: (v) => `Penale per mancata presentazione addebitata da ${v.restaurant}`,
    payment_expired: (v) => `La tua prenotazione da ${v.restaurant} è scaduta senza pagamento`,
  },
  body: {
    payment_due: (v) => [
      `Il tuo tavolo per ${v.party} da ${v.restaurant} il ${v.date} alle ${v.time} (ora di ${v.city}) è tenuto per te, ma non ancora confermato.`,
      v.mode === "guarantee"
        ? `Per confermarlo, salva una carta come garanzia: ora non si paga nulla; una mancata presentazione costa ${v.fee}.`
        : `Per confermarlo, paga ${v.mode === "prepay" ? "il pagamento anticipato" : "il deposito"} di ${v.amount}.`,
      `Fallo entro ${v.due}: dopo il tavolo viene liberato.`,
    ],
    payment_refund: (v) => [
      `${v.restaurant} ti ha rimborsato ${v.moved} per la prenotazione per ${v.party} del ${v.date} alle ${v.time}.`,
      "Di solito la banca lo mostra entro 5-10 giorni.",
    ],
    payment_no_show_fee: (v) => [
      `Non ti sei presentato alla prenotazione per ${v.party} da ${v.restaurant} il ${v.date} alle ${v.time}.`,
      `Come previsto dalla garanzia, la penale di ${v.moved} è stata addebitata sulla carta salvata.`,
    ],
    payment_expired: (v) => [
      `La tua prenotazione per ${v.party} da ${v.restaurant} il ${v.date} alle ${v.time} è scaduta: non è stata pagata in tempo, quindi il tavolo è stato liberato.`,
      "Non è stato addebitato nulla. Puoi prenotare di nuovo quando vuoi.",
    ],
  },
  paid: (v) =>
    v.mode === "guarantee"
      ? [
          `La tua carta è salvata come garanzia: ora non si paga nulla; una mancata presentazione costa ${v.fee}.`,
        ]
      : [
          `${v.mode === "prepay" ? "Pagamento anticipato" : "Deposito"} pagato: ${v.amount}.`,
          `Rimborso completo se cancelli prima di ${v.refundBy}; dopo viene trattenuto.`,
        ],
  pay: (v) => (v.mode === "guarantee" ? "Salva una carta" : `Paga ${v.amount}`),
};

const fr: PaymentTexts = {
  subject: {
    payment_due: (v) => `Pour confirmer votre table chez ${v.restaurant} : ${v.date}, ${v.time}`,
    payment_refund: (v) => `Remboursement de ${v.moved} par ${v.restaurant}`,
    payment_no_show_fee: (v) => `Frais d'absence prélevés par ${v.restaurant}`,
    payment_expired: (v) => `Votre réservation chez ${v.restaurant} a expiré faute de paiement`,
  },
  body: {
    payment_due: (v) => [
      `Votre table pour ${v.party} chez ${v.restaurant} le ${v.date} à ${v.time} (heure de ${v.city}) vous est réservée, mais pas encore confirmée.`,
      v.mode === "guarantee"
        ? `Pour la confirmer, enregistrez une carte en garantie : rien n'est débité maintenant ; une absence coûte ${v.fee}.`
        : `Pour la confirmer, réglez ${v.mode === "prepay" ? "le prépaiement" : "l'acompte"} de ${v.amount}.`,
      `Merci de le faire avant ${v.due} : ensuite, la table est libérée.`,
    ],
    payment_refund: (v) => [
      `${v.restaurant} vous a remboursé ${v.moved} pour votre réservation pour ${v.party} le ${v.date} à ${v.time}.`,
      "Votre banque l'affiche en général sous 5 à 10 jours.",
    ],
    payment_no_show_fee: (v) => [
      `Vous n'êtes pas venu à votre réservation pour ${v.party} chez ${v.restaurant} le ${v.date} à ${v.time}.`,
      `Comme le prévoyait la garantie, les frais d'absence de ${v.moved} ont été prélevés sur la carte enregistrée.`,
    ],
    payment_expired: (v) => [
      `Votre réservation pour ${v.party} chez ${v.restaurant} le ${v.date} à ${v.time} a expiré : elle n'a pas été réglée à temps, la table a donc été libérée.`,
      "Rien n'a été débité. N'hésitez pas à réserver de nouveau.",
    ],
  },
  paid: (v) =>
    v.mode === "guarantee"
      ? [
          `Votre carte est enregistrée en garantie : rien n'est débité maintenant ; une absence coûte ${v.fee}.`,
        ]
      : [
          `${v.mode === "prepay" ? "Prépaiement" : "Acompte"} réglé : ${v.amount}.`,
          `Remboursement intégral si vous annulez avant ${v.refundBy} ; ensuite, il est conservé.`,
        ],
  pay: (v) => (v.mode === "guarantee" ? "Enregistrer une carte" : `Payer ${v.amount}`),
};

const de: PaymentTexts = {
  subject: {
    payment_due: (v) => `Um Ihren Tisch bei ${v.restaurant} zu bestätigen: ${v.date}, ${v.time}`,
    payment_refund: (v) => `Erstattung von ${v.moved} durch ${v.restaurant}`,
    payment_no_show_fee: (v) => `Gebühr für Nichterscheinen von ${v.restaurant} abgebucht`,
    payment_expired: (v) => `Ihre Reservierung bei ${v.restaurant} ist unbezahlt abgelaufen`,
  },
  body: {
    payment_due: (v) => [
      `Ihr Tisch für ${v.party} bei ${v.restaurant} am ${v.date} um ${v.time} (Ortszeit ${v.city}) ist für Sie reserviert, aber noch nicht bestätigt.`,
      v.mode === "guarantee"
        ? `Zur Bestätigung hinterlegen Sie eine Karte als Garantie: jetzt wird nichts abgebucht; ein Nichterscheinen kostet ${v.fee}.`
        : `Zur Bestätigung zahlen Sie die ${v.mode === "prepay" ? "Vorauszahlung" : "Anzahlung"} von ${v.amount}.`,
      `Bitte bis ${v.due}: danach wird der Tisch freigegeben.`,
    ],
    payment_refund: (v) => [
      `${v.restaurant} hat Ihnen ${v.moved} für Ihre Reservierung für ${v.party} am ${v.date} um ${v.time} erstattet.`,
      "Ihre Bank zeigt es meist innerhalb von 5 bis 10 Tagen an.",
    ],
    payment_no_show_fee: (v) => [
      `Sie sind zu Ihrer Reservierung für ${v.party} bei ${v.restaurant} am ${v.date} um ${v.time} nicht erschienen.`,
      `Wie in der Kartengarantie genannt, wurde die Gebühr von ${v.moved} von der hinterlegten Karte abgebucht.`,
    ],
    payment_expired: (v) => [
      `Ihre Reservierung für ${v.party} bei ${v.restaurant} am ${v.date} um ${v.time} ist abgelaufen: Sie wurde nicht rechtzeitig bezahlt, daher wurde der Tisch freigegeben.`,
      "Es wurde nichts abgebucht. Sie können gern erneut reservieren.",
    ],
  },
  paid: (v) =>
    v.mode === "guarantee"
      ? [
          `Ihre Karte ist als Garantie hinterlegt: jetzt wird nichts abgebucht; ein Nichterscheinen kostet ${v.fee}.`,
        ]
      : [
          `${v.mode === "prepay" ? "Vorauszahlung" : "Anzahlung"} bezahlt: ${v.amount}.`,
          `Volle Erstattung bei Storno vor ${v.refundBy}; danach wird sie einbehalten.`,
        ],
  pay: (v) => (v.mode === "guarantee" ? "Karte hinterlegen" : `${v.amount} zahlen`),
};

const es: PaymentTexts = {
  subject: {
    payment_due: (v) => `Para confirmar tu mesa en ${v.restaurant}: ${v.date}, ${v.time}`,
    payment_refund: (v) => `Reembolso de ${v.moved} de ${v.restaurant}`,
    payment_no_show_fee: (v) => `Cargo por no presentarse de ${v.restaurant}`,
    payment_expired: (v) => `Tu reserva en ${v.restaurant} ha caducado sin pago`,
  },
  body: {
    payment_due: (v) => [
      `Tu mesa para ${v.party} en ${v.restaurant} el ${v.date} a las ${v.time} (hora de ${v.city}) está guardada para ti, pero aún no confirmada.`,
      v.mode === "guarantee"
        ? `Para confirmarla, guarda una tarjeta como garantía: ahora no se cobra nada; no presentarse cuesta ${v.fee}.`
        : `Para confirmarla, paga ${v.mode === "prepay" ? "el prepago" : "el depósito"} de ${v.amount}.`,
      `Hazlo antes de ${v.due}: después la mesa se libera.`,
    ],
    payment_refund: (v) => [
      `${v.restaurant} te ha reembolsado ${v.moved} por tu reserva para ${v.party} el ${v.date} a las ${v.time}.`,
      "Tu banco suele mostrarlo en 5 a 10 días.",
    ],
    payment_no_show_fee: (v) => [
      `No acudiste a tu reserva para ${v.party} en ${v.restaurant} el ${v.date} a las ${v.time}.`,
      `Como indicaba la garantía, se ha cobrado el cargo de ${v.moved} en la tarjeta guardada.`,
    ],
    payment_expired: (v) => [
      `Tu reserva para ${v.party} en ${v.restaurant} el ${v.date} a las ${v.time} ha caducado: no se pagó a tiempo, así que la mesa se ha liberado.`,
      "No se ha cobrado nada. Puedes volver a reservar cuando quieras.",
    ],
  },
  paid: (v) =>
    v.mode === "guarantee"
      ? [`Tu tarjeta está guardada como garantía: ahora no se cobra nada; no presentarse cuesta ${v.fee}.`]
      : [
          `${v.mode === "prepay" ? "Prepago" : "Depósito"} pagado: ${v.amount}.`,
          `Reembolso completo si cancelas antes de ${v.refundBy}; después se retiene.`,
        ],
  pay: (v) => (v.mode === "guarantee" ? "Guardar una tarjeta" : `Pagar ${v.amount}`),
};

export const PAYMENT_TEXTS: Record<Locale, PaymentTexts> = { en, it, fr, de, es };
