import { css } from "lit";

export const bookStyles = css`
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: end;
  }
  .row .field {
    flex: 0 0 8rem;
  }
  .row p {
    flex: 1 1 12rem;
    margin: 0 0 0.5rem;
  }
  .small {
    font-size: 0.9rem;
  }
  .label {
    font-weight: 600;
    margin: 0 0 0.4rem;
  }
  .chosen {
    margin: 0.5rem 0 0;
    font-weight: 600;
  }
  .status:empty,
  .alert:empty {
    display: none;
  }
  .grid {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr));
    gap: 0.75rem 1rem;
  }
  form > * + * {
    margin-top: var(--_gap);
  }
  h2:focus {
    outline: none;
  }
  .manage {
    overflow-wrap: anywhere;
  }
  .waiting summary {
    padding: 0.6rem 0;
    font-weight: 600;
    color: var(--_accent-text, var(--_accent));
    cursor: pointer;
  }
`;

/**
 * The action bar stays in reach on a phone, and whatever has the focus scrolls clear of it; on a
 * wider screen it stays below the times, never over them. The server's refusals under their fields.
 */
export const barStyles = css`
  .bar {
    padding: 0.5rem 0;
    background: var(--_bg);
  }
  @media (max-width: 48rem) {
    .bar {
      position: sticky;
      bottom: 0;
      z-index: 1;
      box-shadow: 0 -1px 0 var(--_border);
    }
    input,
    select,
    button,
    a,
    summary,
    [tabindex] {
      scroll-margin-bottom: 5rem;
    }
  }
  .picked {
    font-weight: 700;
  }
  .field-error {
    margin: 0.25rem 0 0;
    color: var(--_danger);
    font-size: 0.9rem;
  }
  [aria-invalid="true"] {
    border-color: var(--_danger);
    border-width: 2px;
  }
`;

/** "Next available" (its code is loaded when a day is full; its styles are the page's). */
export const nextStyles = css`
  .next ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.5rem;
  }
  .next .btn {
    width: 100%;
    justify-content: flex-start;
    text-align: start;
  }
`;
