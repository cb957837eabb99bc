/**
 * Moving between views: links are real anchors (open in a new tab works) whose plain click asks
 * <booking-console> to route instead of loading the page.
 */
import { html } from "lit";
import { type Route, routePath } from "../router.js";

export interface NavigateDetail {
  route: Route;
  replace?: boolean;
}

/** Asks <booking-console> to show `route` (bubbles and crosses shadow roots). */
export function navigate(from: Element, route: Route, replace = false) {
  from.dispatchEvent(
    new CustomEvent<NavigateDetail>("console-navigate", {
      detail: { route, replace },
      bubbles: true,
      composed: true,
    }),
  );
}

function follow(route: Route) {
  return (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(e.currentTarget as Element, route);
  };
}

/** An anchor to a view. */
export const link = (route: Route, content: unknown, part = "link") =>
  html`<a href=${routePath(route)} part=${part} @click=${follow(route)}>${content}</a>`;

declare global {
  interface GlobalEventHandlersEventMap {
    "console-navigate": CustomEvent<NavigateDetail>;
  }
}
