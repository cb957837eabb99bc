/** The shared tablet's PINs: how many wrong tries lock one, and for how long. */
export const PIN_TRIES = 5;
export const PIN_LOCK_MINUTES = 15;
