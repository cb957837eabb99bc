// Moving through a page as a keyboard user does, in the end-to-end tests (Playwright pages).

/** The focused element, through the shadow roots, as a keyboard user's screen reader would name it. */
export const focused = (page) =>
  page.evaluate(() => {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    if (!a) return null;
    const label =
      a.labels?.[0]?.textContent ??
      a.closest?.("label")?.textContent ??
      a.getAttribute("aria-label") ??
      a.textContent ??
      "";
    return {
      tag: a.tagName.toLowerCase(),
      id: a.id,
      name: a.getAttribute("name"),
      value: a.value ?? null,
      checked: a.checked ?? null,
      date: a.dataset?.date ?? null,
      label: label.trim().replace(/\s+/g, " "),
    };
  });

/** Presses Tab until the focus is on what `match` wants (at most `max` times). */
export async function tabTo(page, match, what, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const f = await focused(page);
    if (f && match(f)) return f;
  }
  throw new Error(`Tab never reached ${what}; focus is on ${JSON.stringify(await focused(page))}`);
}
