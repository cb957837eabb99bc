// What confirming, authenticating, cancelling and refunding do to the stand-in's objects, and the
// events each move sends (`emit(type, object, account)`), as Stripe's test mode behaves.
import {
  accountOf,
  CARDS,
  cardError,
  invalid,
  newCharge,
  newRefund,
  notFound,
  paymentMethodOf,
  StripeError,
} from "./objects.mjs";

const DECLINED = {
  insufficient_funds: "Your card has insufficient funds.",
  generic_decline: "Your card was declined.",
};

/** Confirms a PaymentIntent: succeeded, 3-D Secure asked (on session), or declined (402). */
export function confirmPayment(ctx, entry, params) {
  const { state, emit } = ctx;
  const { pi, account } = entry;
  if (!["requires_payment_method", "requires_confirmation"].includes(pi.status))
    throw invalid("intent", `This PaymentIntent's status is ${pi.status}: it cannot be confirmed.`);
  const method = paymentMethodOf(state, account, params);
  pi.payment_method = method.id;
  const card = CARDS[method.number];
  if (card.outcome === "declines") return declinePayment(ctx, entry, method, card.decline);
  if (card.outcome === "authenticates" && !entry.authenticated) {
    if (params.off_session === "true" || params.off_session === true)
      return declinePayment(ctx, entry, method, undefined, "authentication_required");
    pi.status = "requires_action";
    pi.next_action = { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect" } };
    emit("payment_intent.requires_action", pi, account);
    return pi;
  }
  return succeedPayment(ctx, entry, method);
}

function succeedPayment({ state, emit }, entry, method) {
  const { pi, account } = entry;
  const charge = newCharge(state, account, pi, method);
  Object.assign(pi, {
    status: "succeeded",
    amount_received: pi.amount,
    latest_charge: charge.id,
    last_payment_error: null,
    next_action: null,
  });
  emit("charge.succeeded", charge, account);
  emit("payment_intent.succeeded", pi, account);
  return pi;
}

function declinePayment({ emit }, entry, method, decline, code = "card_declined") {
  const { pi, account } = entry;
  const message =
    code === "authentication_required"
      ? "Your card was declined. This transaction requires authentication."
      : DECLINED[decline ?? "generic_decline"];
  const error = {
    ...cardError(code, message, decline ?? (code === "card_declined" ? "generic_decline" : undefined)),
    payment_method: { id: method.id, object: "payment_method", type: "card", card: method.card },
  };
  Object.assign(pi, { status: "requires_payment_method", last_payment_error: error, next_action: null });
  emit("payment_intent.payment_failed", pi, account);
  throw new StripeError(402, { ...error, payment_intent: { ...pi } });
}

/** The 3-D Secure challenge answered (the stand-in's challenge frame, or a test). */
export function authenticate(ctx, entry, outcome) {
  const target = entry.pi ?? entry.si;
  if (target.status !== "requires_action") throw invalid("intent", "Nothing to authenticate.");
  const method = ctx.state.paymentMethods.get(target.payment_method);
  if (outcome === "complete") {
    entry.authenticated = true;
    return entry.pi ? succeedPayment(ctx, entry, method) : succeedSetup(ctx, entry, method);
  }
  const error = {
    type: "invalid_request_error",
    code: entry.pi ? "payment_intent_authentication_failure" : "setup_intent_authentication_failure",
    message:
      "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
    payment_method: { id: method.id, object: "payment_method", type: "card", card: method.card },
  };
  Object.assign(target, { status: "requires_payment_method", next_action: null, payment_method: null });
  if (entry.pi) {
    target.last_payment_error = error;
    ctx.emit("payment_intent.payment_failed", target, entry.account);
  } else {
    target.last_setup_error = error;
    ctx.emit("setup_intent.setup_failed", target, entry.account);
  }
  return target;
}

export function cancelPayment({ emit }, entry, reason) {
  const { pi, account } = entry;
  if (pi.status === "succeeded" || pi.status === "canceled")
    throw invalid(
      "intent",
      `You cannot cancel this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
    );
  Object.assign(pi, {
    status: "canceled",
    canceled_at: Math.floor(Date.now() / 1000),
    cancellation_reason: reason ?? null,
    next_action: null,
  });
  emit("payment_intent.canceled", pi, account);
  return pi;
}

/** Confirms a SetupIntent: the card saved for later use off session, 3-D Secure asked, or declined. */
export function confirmSetup(ctx, entry, params) {
  const { state } = ctx;
  const { si, account } = entry;
  if (si.status !== "requires_payment_method")
    throw invalid("intent", `This SetupIntent's status is ${si.status}: it cannot be confirmed.`);
  const method = paymentMethodOf(state, account, params);
  si.payment_method = method.id;
  const card = CARDS[method.number];
  if (card.outcome === "declines") {
    const error = {
      ...cardError("card_declined", DECLINED[card.decline], card.decline),
      payment_method: { id: method.id, object: "payment_method", type: "card", card: method.card },
    };
    Object.assign(si, { status: "requires_payment_method", last_setup_error: error, payment_method: null });
    ctx.emit("setup_intent.setup_failed", si, account);
    throw new StripeError(402, { ...error, setup_intent: { ...si } });
  }
  if (card.outcome === "authenticates" && !entry.authenticated) {
    si.status = "requires_action";
    si.next_action = { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect" } };
    return si;
  }
  return succeedSetup(ctx, entry, method);
}

function succeedSetup({ emit }, entry, method) {
  const { si, account } = entry;
  method.customer = si.customer;
  Object.assign(si, { status: "succeeded", last_setup_error: null, next_action: null });
  emit("setup_intent.succeeded", si, account);
  return si;
}

/** A refund of a succeeded PaymentIntent's charge, in full or in part. */
export function refund(ctx, account, params) {
  const { state, emit } = ctx;
  const entry = state.paymentIntents.get(params.payment_intent);
  if (!entry || entry.account !== account) throw notFound("payment_intent", params.payment_intent);
  const chargeEntry = state.charges.get(entry.pi.latest_charge ?? "");
  if (!chargeEntry) throw invalid("payment_intent", "This PaymentIntent has no successful charge to refund.");
  const { charge } = chargeEntry;
  const left = charge.amount - charge.amount_refunded;
  const amount = params.amount === undefined ? left : Number(params.amount);
  if (!Number.isInteger(amount) || amount < 1) throw invalid("amount", "Invalid positive integer");
  if (amount > left)
    throw invalid(
      "amount",
      `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
    );
  const made = newRefund(state, account, charge, amount, params.metadata);
  emit("refund.created", made, account);
  emit("charge.refunded", charge, account);
  return made;
}

/** Completes a connected account's onboarding at once: it can take charges from now on. */
export function onboard({ state, emit }, accountId) {
  const account = accountOf(state, accountId);
  Object.assign(account, { charges_enabled: true, payouts_enabled: true, details_submitted: true });
  emit("account.updated", account, account.id);
  return account;
}
