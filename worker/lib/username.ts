/**
 * Usernames of clients and properties: one name, one account, however it is typed.
 * A username is kept as given after Unicode NFKC normalisation (so "ｄｅｍｏ" is "demo"), and
 * compared by its key: NFKC and lower case, so "ALICE-1" and "alice-1" are one name. Invisible
 * characters (zero-width spaces and joiners, bidi marks, variation selectors, fillers), controls
 * and white space are refused rather than dropped: a name that looks like another is never
 * taken silently. Pure: no Hono, no drizzle.
 */

/** Controls, format characters (U+200B...), separators (spaces) and default-ignorable code points (U+3164...). */
const INVISIBLE = /[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]/u;

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 100;

/** The username as it is stored and shown: NFKC, without surrounding white space. */
export function normaliseUsername(raw: string): string {
  return raw.normalize("NFKC").trim();
}

/** What is wrong with a (normalised) username, or undefined when it is acceptable. */
export function usernameProblem(name: string): string | undefined {
  const length = [...name].length;
  if (length < USERNAME_MIN) return `a username has at least ${USERNAME_MIN} characters`;
  if (length > USERNAME_MAX) return `a username has at most ${USERNAME_MAX} characters`;
  if (INVISIBLE.test(name)) return "a username may not contain spaces, invisible or control characters";
  return undefined;
}

/** The comparison form: two usernames are the same name when their keys are equal. */
export function usernameKey(name: string): string {
  // Lower-casing may undo NFKC (a few characters lower-case into decomposed forms): normalise again.
  return name.normalize("NFKC").toLowerCase().normalize("NFKC");
}
