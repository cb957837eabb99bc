// Stripe's request bodies: form-encoded with nested keys (`metadata[reservation_id]=7`,
// `expand[0]=latest_charge`, `payment_method_data[card][number]=...`), as the SDK and Stripe.js send
// them; Stripe.js may send JSON too. Lists come back as arrays, the rest as nested objects of strings.

export function parseForm(text, contentType = "") {
  if (!text) return {};
  if (contentType.includes("application/json")) return JSON.parse(text);
  const out = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.split("[").map((part) => part.replace(/]$/, ""));
    let node = out;
    for (let i = 0; i < path.length - 1; i++) {
      const next = path[i + 1];
      node[path[i]] ??= next === "" || /^\d+$/.test(next) ? [] : {};
      node = node[path[i]];
    }
    const last = path[path.length - 1];
    if (Array.isArray(node)) node.push(value);
    else node[last] = value;
  }
  return out;
}
