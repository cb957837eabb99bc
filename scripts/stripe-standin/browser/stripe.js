// The stand-in Stripe.js, served at /v3/ by the local Stripe stand-in (scripts/stripe-standin/) in
// place of https://js.stripe.com/v3/: the calls the widget makes, with Stripe.js's behaviour where
// it matters to a page. `Stripe(pk, {stripeAccount})`, `elements({clientSecret, appearance})`,
// `elements.create("payment").mount(el)` (a card frame served by the stand-in; like Stripe's
// Elements, it refuses a mount point inside a shadow root), `confirmPayment` / `confirmSetup` with
// `redirect: "if_required"` (the frame confirms with the publishable key and the client secret), and
// a 3-D Secure challenge frame over the page with "Complete" and "Fail" for the test or a person.
(() => {
  const ORIGIN = new URL(document.currentScript.src).origin;

  class IntegrationError extends Error {
    constructor(message) {
      super(message);
      this.name = "IntegrationError";
    }
  }

  const secretIntent = (secret) => {
    const m = /^((?:pi|seti)_[A-Za-z0-9]+)_secret_/.exec(secret ?? "");
    if (!m)
      throw new IntegrationError(
        "Invalid value for clientSecret: it should be the client secret of a PaymentIntent or a SetupIntent.",
      );
    return m[1];
  };

  function frameMessage(frame, message) {
    return new Promise((resolve) => {
      const nonce = Math.random().toString(36).slice(2);
      const listen = (e) => {
        if (e.source !== frame.contentWindow || e.data?.nonce !== nonce) return;
        window.removeEventListener("message", listen);
        resolve(e.data);
      };
      window.addEventListener("message", listen);
      frame.contentWindow.postMessage({ ...message, nonce }, ORIGIN);
    });
  }

  function createElement(elements) {
    const handlers = {};
    let frame;
    let ready;
    const fire = (name, detail) => {
      for (const h of handlers[name] ?? []) h(detail);
    };
    const element = {
      mount(target) {
        const el = typeof target === "string" ? document.querySelector(target) : target;
        if (!(el instanceof HTMLElement))
          throw new IntegrationError("The selector you specified does not match any element.");
        if (el.getRootNode() instanceof ShadowRoot)
          throw new IntegrationError(
            "Elements cannot be mounted in a ShadowRoot. Please mount in the Light DOM.",
          );
        frame = document.createElement("iframe");
        frame.src = `${ORIGIN}/elements/payment.html#locale=${encodeURIComponent(elements.locale)}`;
        frame.title = "Secure payment input frame";
        frame.setAttribute("allow", "payment *");
        frame.style.cssText = "border:0;width:100%;height:12.5rem;display:block;color-scheme:normal";
        ready = new Promise((resolve) => {
          window.addEventListener("message", function listen(e) {
            if (e.source !== frame.contentWindow) return;
            if (e.data?.type === "ready") {
              resolve();
              fire("ready", { elementType: "payment" });
            }
            if (e.data?.type === "change") fire("change", { elementType: "payment", ...e.data.detail });
            if (e.data?.type === "focus" || e.data?.type === "blur")
              fire(e.data.type, { elementType: "payment" });
            if (!frame.isConnected) window.removeEventListener("message", listen);
          });
        });
        el.replaceChildren(frame);
        element._frame = frame;
        element._ready = ready;
        return element;
      },
      on(name, handler) {
        handlers[name] = [...(handlers[name] ?? []), handler];
        return element;
      },
      off(name, handler) {
        handlers[name] = (handlers[name] ?? []).filter((h) => h !== handler);
        return element;
      },
      focus() {
        frame?.focus();
      },
      unmount() {
        frame?.remove();
      },
      destroy() {
        frame?.remove();
        elements._element = undefined;
      },
    };
    return element;
  }

  function challenge(intentId, clientSecret) {
    return new Promise((resolve) => {
      const frame = document.createElement("iframe");
      frame.src = `${ORIGIN}/elements/challenge.html#intent=${intentId}&secret=${encodeURIComponent(clientSecret)}`;
      frame.title = "3D Secure authentication";
      frame.dataset.stripeChallenge = "";
      frame.style.cssText =
        "position:fixed;inset:0;width:100vw;height:100vh;border:0;z-index:2147483647;background:rgba(0,0,0,.45)";
      const listen = (e) => {
        if (e.source !== frame.contentWindow || e.data?.type !== "challenge-done") return;
        window.removeEventListener("message", listen);
        frame.remove();
        resolve(e.data.outcome);
      };
      window.addEventListener("message", listen);
      document.body.appendChild(frame);
      frame.focus();
    });
  }

  async function retrieve(kind, id, key, clientSecret, account) {
    const path = kind === "payment" ? "payment_intents" : "setup_intents";
    const q = new URLSearchParams({ key, client_secret: clientSecret });
    const res = await fetch(`${ORIGIN}/v1/${path}/${id}?${q}`, {
      headers: account ? { "Stripe-Account": account } : {},
    });
    return res.json();
  }

  async function confirm(kind, stripe, options) {
    const elements = options?.elements;
    if (!elements?._element?._frame)
      throw new IntegrationError("Invalid value for elements: mount a Payment Element first.");
    const element = elements._element;
    await element._ready;
    const intentId = secretIntent(elements._clientSecret);
    const answer = await frameMessage(element._frame, {
      type: "confirm",
      kind,
      key: stripe._key,
      account: stripe._account,
      clientSecret: elements._clientSecret,
    });
    if (answer.error) return { error: answer.error };
    let intent = answer.intent;
    if (intent.status === "requires_action") {
      await challenge(intentId, elements._clientSecret);
      intent = await retrieve(kind, intentId, stripe._key, elements._clientSecret, stripe._account);
    }
    const failed = kind === "payment" ? intent.last_payment_error : intent.last_setup_error;
    if (intent.status === "requires_payment_method" && failed)
      return { error: { ...failed, [kind === "payment" ? "payment_intent" : "setup_intent"]: intent } };
    return kind === "payment" ? { paymentIntent: intent } : { setupIntent: intent };
  }

  window.Stripe = function Stripe(key, options = {}) {
    if (!/^pk_(test|live)_/.test(key ?? ""))
      throw new IntegrationError("Invalid value for Stripe(): apiKey should be a publishable key.");
    const stripe = {
      _key: key,
      _account: options.stripeAccount,
      elements(opts = {}) {
        secretIntent(opts.clientSecret);
        const elements = {
          _clientSecret: opts.clientSecret,
          locale: opts.locale ?? options.locale ?? "auto",
          create(type) {
            if (type !== "payment")
              throw new IntegrationError(`The stand-in knows the "payment" element only, not "${type}".`);
            elements._element = createElement(elements);
            return elements._element;
          },
          getElement: (type) => (type === "payment" ? (elements._element ?? null) : null),
          async submit() {
            return {};
          },
          update() {},
        };
        return elements;
      },
      confirmPayment: (o) => confirm("payment", stripe, o),
      confirmSetup: (o) => confirm("setup", stripe, o),
    };
    return stripe;
  };
  window.Stripe.version = 3;
})();
