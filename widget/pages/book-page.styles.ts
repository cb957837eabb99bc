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

/** The action bar stays in reach on a phone; the server's refusals under their fields. */
export const barStyles = css`
  .bar {
    position: sticky;
    bottom: 0;
    z-index: 1;
    padding: 0.5rem 0;
    background: var(--_bg);
    box-shadow: 0 -1px 0 var(--_border);
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
