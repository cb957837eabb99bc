/** The floor plan's look: the rooms beside the side panel, each table's state in colour and words. */
import { css } from "lit";

export const floorStyles = css`
  .floor {
    display: grid;
    grid-template-columns: minmax(0, 1fr) 18rem;
    gap: var(--_gap);
  }
  @media (max-width: 60rem) {
    .floor {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  svg {
    display: block;
    width: 100%;
    height: auto;
    touch-action: none;
  }
  .room {
    fill: var(--_surface);
    stroke: var(--_border);
  }
  .table {
    cursor: pointer;
    outline: none;
  }
  .table rect,
  .table ellipse {
    stroke: var(--_text);
    stroke-width: 2;
  }
  .table text {
    font-size: 16px;
    font-weight: 600;
    fill: #111;
    pointer-events: none;
  }
  .table .state {
    font-size: 12px;
    font-weight: 400;
  }
  .table.free rect,
  .table.free ellipse,
  .key.free {
    fill: #e8f5e9;
    background: #e8f5e9;
  }
  .table.soon rect,
  .table.soon ellipse,
  .key.soon {
    fill: #fff3c4;
    background: #fff3c4;
  }
  .table.seated rect,
  .table.seated ellipse,
  .key.seated {
    fill: #c7dcff;
    background: #c7dcff;
  }
  .table.late rect,
  .table.late ellipse,
  .key.late {
    fill: #ffd0cc;
    background: #ffd0cc;
  }
  .table.picked rect,
  .table.picked ellipse,
  .table:focus-visible rect,
  .table:focus-visible ellipse {
    stroke: var(--_focus, var(--_accent));
    stroke-width: 6;
  }
  .table.moved rect,
  .table.moved ellipse {
    stroke-dasharray: 8 4;
  }
  .key {
    display: inline-block;
    width: 1rem;
    height: 1rem;
    margin-inline: 0.5rem 0.25rem;
    border: 1px solid var(--_border);
    vertical-align: middle;
  }
  .modes {
    border: 0;
    padding: 0;
  }
  .side fieldset {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .modes label,
  label.party {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    padding: 0.35rem 0;
  }
  input[type="radio"] {
    width: 1.1rem;
    height: 1.1rem;
    min-height: 0;
    margin: 0;
    flex: none;
  }
  .actions {
    margin-top: var(--_gap);
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .actions h2 {
    flex-basis: 100%;
    font-size: 1.1rem;
    margin: 0;
  }
`;
