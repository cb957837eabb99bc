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
    color: var(--_accent);
    cursor: pointer;
  }
`;
