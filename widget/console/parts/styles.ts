/**
 * The console's styles: the widget's `--be-*` theme and base (buttons, fields, focus ring), plus
 * what a screen of lists and tables needs.
 */
import { css } from "lit";
import { base, theme } from "../../parts/styles.js";

export { base, theme };

export const consoleStyles = css`
  :host {
    --_accent-text: var(--_accent);
  }
  h1 {
    font-size: 1.5rem;
    margin: 0 0 0.75rem;
  }
  a {
    color: var(--_accent);
  }
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 0.75rem;
    align-items: end;
    margin-bottom: var(--_gap);
  }
  .toolbar label {
    display: block;
  }
  .toolbar input {
    width: auto;
  }
  .btn.small {
    min-height: 2.25rem;
    padding: 0.25rem 0.7rem;
  }
  table {
    width: 100%;
    border-collapse: collapse;
  }
  th,
  td {
    text-align: start;
    padding: 0.4rem 0.5rem;
    border-bottom: 1px solid var(--_surface);
    vertical-align: top;
  }
  th {
    font-size: 0.9rem;
    color: var(--_muted);
  }
  .badge {
    display: inline-block;
    margin: 0 0.25rem 0.1rem 0;
    padding: 0 0.4rem;
    border: 1px solid var(--_border);
    border-radius: 999px;
    font-size: 0.8rem;
    white-space: nowrap;
  }
  .badge.alert {
    border-color: var(--_danger);
    color: var(--_danger);
  }
  .grid {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr));
    gap: var(--_gap);
  }
  .field-error {
    color: var(--_danger);
    font-size: 0.9rem;
    margin: 0.25rem 0 0;
  }
  .scroll {
    overflow-x: auto;
  }
  section + section {
    margin-top: calc(var(--_gap) * 1.5);
  }
  /* On paper: no buttons, search or covers strip, nothing clipped by a scrolling box. */
  @media print {
    .btn,
    button,
    .toolbar,
    .no-print,
    table.quarters {
      display: none !important;
    }
    .scroll {
      overflow: visible;
    }
    a {
      color: inherit;
      text-decoration: none;
    }
  }
`;
