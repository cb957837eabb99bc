// The stand-in's Stripe objects and their moves: connected accounts and their onboarding links,
// customers, PaymentIntents, SetupIntents, charges, payment methods and refunds, shaped as Stripe's
// API answers them (the fields we and Stripe.js read, checked against Stripe's published OpenAPI
// description by tests/standin/stripe-standin.test.mjs). Cards and test payment methods behave as
// Stripe's test mode documents them.
import { randomBytes } from "node:crypto";

/** Test cards: what a card number does when a payment or a setup is confirmed with it. */
export const CARDS = {
  4242424242424242: { brand: "visa", outcome: "succeeds" },
  4000000000009995: { brand: "visa", outcome: "declines", decline: "insufficient_funds" },
  4000000000000002: { brand: "visa", outcome: "declines", decline: "generic_decline" },
  4000002760003184: { brand: "visa", outcome: "authenticates" },
  5555555555554444: { brand: "mastercard", outcome: "succeeds" },
};
/** Stripe's test payment methods, as a server confirms with them. */
export const TEST_METHODS = {
  pm_card_visa: "4242424242424242",
  pm_card_chargeDeclined: "4000000000000002",
  pm_card_threeDSecure2Required: "4000002760003184",
};

export class StripeError extends Error {
  constructor(status, error) {
    super(error.message);
    this.status = status;
    this.error = error;
  }
}

const id = (prefix) => `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
const seconds = () => Math.floor(Date.now() / 1000);

export function createState() {
  return {
    accounts: new Map(),
    customers: new Map(),
    paymentIntents: new Map(),
    setupIntents: new Map(),
    paymentMethods: new Map(),
    charges: new Map(),
    refunds: new Map(),
  };
}

export function newAccount(state, params) {
  const account = {
    id: id("acct"),
    object: "account",
    type: params.type ?? "standard",
    country: params.country ?? "IT",
    email: params.email ?? null,
    default_currency: (params.default_currency ?? "eur").toLowerCase(),
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    created: seconds(),
    metadata: params.metadata ?? {},
  };
  state.accounts.set(account.id, account);
  return account;
}

export function accountOf(state, accountId) {
  const account = state.accounts.get(accountId) ?? adopted(state, accountId);
  if (!account) throw notFound("account", accountId);
  return account;
}

/**
 * `npm start`'s stand-in adopts a connected account made in an earlier run (its state lives in
 * memory, the local database keeps the id), as onboarded; the tests' stand-in does not.
 */
function adopted(state, accountId) {
  if (!state.adoptAccounts || !/^acct_\w+$/.test(accountId ?? "")) return undefined;
  const account = newAccount(state, {});
  state.accounts.delete(account.id);
  Object.assign(account, {
    id: accountId,
    charges_enabled: true,
    payouts_enabled: true,
    details_submitted: true,
  });
  state.accounts.set(accountId, account);
  return account;
}

export function notFound(kind, value) {
  return new StripeError(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such ${kind}: '${value}'`,
    param: "id",
  });
}

export function invalid(param, message) {
  return new StripeError(400, { type: "invalid_request_error", code: "parameter_invalid", param, message });
}

export function newCustomer(state, account, params) {
  const customer = {
    id: id("cus"),
    object: "customer",
    email: params.email ?? null,
    name: params.name ?? null,
    created: seconds(),
    metadata: params.metadata ?? {},
    livemode: false,
  };
  state.customers.set(customer.id, { account, customer });
  return customer;
}

/** A payment method of the card typed (the Payment Element's frame) or of a test payment method. */
export function paymentMethodOf(state, account, params) {
  const given = params.payment_method;
  if (given && state.paymentMethods.has(given)) return state.paymentMethods.get(given);
  const number = given ? TEST_METHODS[given] : params.payment_method_data?.card?.number?.replace(/\s/g, "");
  if (given && !number) throw notFound("payment_method", given);
  const card = CARDS[number ?? ""];
  if (!card) throw new StripeError(402, cardError("incorrect_number", "Your card number is incorrect."));
  const method = {
    id: id("pm"),
    object: "payment_method",
    type: "card",
    card: { brand: card.brand, last4: number.slice(-4), exp_month: 12, exp_year: 2034, country: "US" },
    customer: null,
    created: seconds(),
    livemode: false,
    metadata: {},
    billing_details: { address: null, email: null, name: null, phone: null },
    number,
    account,
  };
  state.paymentMethods.set(method.id, method);
  return method;
}

export function cardError(code, message, decline) {
  return { type: "card_error", code, message, ...(decline && { decline_code: decline }) };
}

export function newPaymentIntent(state, account, params) {
  const amount = Number(params.amount);
  if (!Number.isInteger(amount) || amount < 50) throw invalid("amount", "Amount must be at least 50 cents");
  if (!/^[a-z]{3}$/.test(params.currency ?? "")) throw invalid("currency", "Invalid currency");
  const pi = {
    id: id("pi"),
    object: "payment_intent",
    amount,
    amount_received: 0,
    application_fee_amount: params.application_fee_amount ? Number(params.application_fee_amount) : null,
    automatic_payment_methods: { enabled: true },
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic",
    client_secret: null,
    confirmation_method: "automatic",
    created: seconds(),
    currency: params.currency,
    customer: params.customer ?? null,
    description: params.description ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: params.metadata ?? {},
    next_action: null,
    payment_method: null,
    payment_method_types: ["card"],
    receipt_email: params.receipt_email ?? null,
    status: "requires_payment_method",
  };
  pi.client_secret = `${pi.id}_secret_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
  state.paymentIntents.set(pi.id, { account, pi });
  return pi;
}

export function newSetupIntent(state, account, params) {
  const si = {
    id: id("seti"),
    object: "setup_intent",
    cancellation_reason: null,
    client_secret: null,
    created: seconds(),
    customer: params.customer ?? null,
    description: params.description ?? null,
    last_setup_error: null,
    livemode: false,
    metadata: params.metadata ?? {},
    next_action: null,
    payment_method: null,
    payment_method_types: ["card"],
    status: "requires_payment_method",
    usage: params.usage ?? "off_session",
  };
  si.client_secret = `${si.id}_secret_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
  state.setupIntents.set(si.id, { account, si });
  return si;
}

/** The charge a succeeded PaymentIntent made with its payment method. */
export function newCharge(state, account, pi, method) {
  const charge = {
    id: id("ch"),
    object: "charge",
    amount: pi.amount,
    amount_captured: pi.amount,
    amount_refunded: 0,
    application_fee_amount: pi.application_fee_amount,
    captured: true,
    created: seconds(),
    currency: pi.currency,
    customer: pi.customer,
    livemode: false,
    metadata: pi.metadata,
    paid: true,
    payment_intent: pi.id,
    payment_method: method.id,
    payment_method_details: { type: "card", card: { brand: method.card.brand, last4: method.card.last4 } },
    refunded: false,
    status: "succeeded",
  };
  state.charges.set(charge.id, { account, charge });
  return charge;
}

export function newRefund(state, account, charge, amount, metadata) {
  const refund = {
    id: id("re"),
    object: "refund",
    amount,
    charge: charge.id,
    created: seconds(),
    currency: charge.currency,
    metadata: metadata ?? {},
    payment_intent: charge.payment_intent,
    reason: null,
    status: "succeeded",
  };
  state.refunds.set(refund.id, { account, refund });
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded >= charge.amount;
  return refund;
}

/** An object as the API answers it: `expand[]` swaps listed ids for their objects. */
export function expanded(state, object, expand = []) {
  const out = { ...object };
  for (const field of expand) {
    const value = out[field];
    if (typeof value !== "string") continue;
    if (field === "payment_method") out[field] = publicMethod(state.paymentMethods.get(value));
    if (field === "latest_charge") out[field] = state.charges.get(value)?.charge ?? value;
  }
  return out;
}

export function publicMethod(method) {
  if (!method) return null;
  const { number: _n, account: _a, ...rest } = method;
  return rest;
}
