/**
 * Styles shared by the pages: the `--be-*` theme with its defaults, buttons, fields, focus ring.
 * Custom properties inherit through shadow roots, so the pages read the values the host sets.
 */
import { css } from "lit";

/** The theme, resolved once on <booking-engine>'s :host; pages read the `--_*` values. */
export const theme = css`
  :host {
    --_accent: var(--be-accent, #1d5c8a);
    --_on-accent: var(--be-on-accent, #fff);
    --_text: var(--be-text, #1b1b1f);
    --_muted: var(--be-muted, #4d4d57);
    --_bg: var(--be-background, #fff);
    --_surface: var(--be-surface, #f4f4f6);
    --_border: var(--be-border, #75757f);
    --_danger: var(--be-danger, #a3161b);
    --_success: var(--be-success, #136f3a);
    --_radius: var(--be-radius, 0.5rem);
    --_focus: var(--be-focus, #1a4fd6);
    --_font: var(--be-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
    --_gap: var(--be-gap, 1rem);
  }
`;

export const base = css`
  :host {
    display: block;
    color: var(--_text);
    font-family: var(--_font);
    line-height: 1.45;
    /* A long word or address wraps at 320 px rather than widening the page. */
    overflow-wrap: anywhere;
    hyphens: auto;
  }
  a {
    color: var(--_accent-text, var(--_accent));
  }
  .email {
    hyphens: manual;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h2,
  h3 {
    margin: 0 0 0.5rem;
    line-height: 1.2;
  }
  h2 {
    font-size: 1.4rem;
  }
  h3 {
    font-size: 1.1rem;
  }
  p {
    margin: 0 0 0.75rem;
  }
  .stack > * + * {
    margin-top: var(--_gap);
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  [tabindex="-1"]:focus {
    outline: none;
  }
  .btn {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.4rem;
    min-height: 2.75rem;
    padding: 0.5rem 1.1rem;
    border: 2px solid var(--_accent);
    border-radius: var(--_radius);
    background: var(--_accent);
    color: var(--_on-accent);
    font: inherit;
    font-weight: 600;
    cursor: pointer;
    text-decoration: none;
  }
  .btn.secondary {
    background: transparent;
    color: var(--_accent-text, var(--_accent));
  }
  .btn.danger {
    background: var(--_danger);
    border-color: var(--_danger);
  }
  .btn[disabled],
  .btn[aria-disabled="true"] {
    opacity: 0.6;
    cursor: not-allowed;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem;
    align-items: center;
  }
  label,
  legend {
    font-weight: 600;
  }
  fieldset {
    border: 0;
    margin: 0;
    padding: 0;
    min-width: 0;
  }
  legend {
    padding: 0;
    margin-bottom: 0.4rem;
  }
  input,
  select,
  textarea {
    display: block;
    width: 100%;
    min-height: 2.75rem;
    margin-top: 0.25rem;
    padding: 0.45rem 0.6rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: var(--_text);
    font: inherit;
  }
  .message {
    padding: 0.75rem 1rem;
    border-radius: var(--_radius);
    border-left: 4px solid var(--_accent);
    background: var(--_surface);
  }
  .message.error {
    border-left-color: var(--_danger);
  }
  .message.success {
    border-left-color: var(--_success);
  }
  .muted {
    color: var(--_muted);
  }
  dl.summary {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.25rem 1rem;
    margin: 0;
  }
  dl.summary dt {
    font-weight: 600;
  }
  dl.summary dd {
    margin: 0;
  }
  @media (prefers-reduced-motion: no-preference) {
    .btn {
      transition: background-color 0.15s, color 0.15s;
    }
  }
`;
