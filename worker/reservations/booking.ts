/**
 * The reservation rules applied to D1, as the routes and the other features call them: the
 * engine decides what may be taken, the state machine which moves are allowed, and each write is
 * one batch that the database refuses when a concurrent booking took the table first or the row
 * changed since it was read.
 */
export { act } from "./act";
export type { BookingContext } from "./context";
export {
  type Created,
  type CreateExtras,
  type CreateInput,
  createReservation,
  createReservationWithRelated,
  type FirstRead,
} from "./create";
export { changePayment, type PaymentChange } from "./payment";
export { type UpdateInput, updateReservation } from "./update";
export { engineOf, type LoadedDay, loadDay, requireReservation } from "./write";
