// What the Worker's bundle imports as "zod" (wrangler.toml [alias]): zod itself, but with a `z`
// object that names only the members the Worker calls. zod's own `z` is a namespace that also holds
// every locale (64 files), zod's core and every schema kind, and a namespace used as a value keeps
// all of it in the bundle; an object keeps what it names. A schema's methods (.optional(), .email(),
// .pipe(), ...) bring the kinds they build themselves. scripts/deploy/bundle.mjs reads worker/,
// shared/ and zod-to-openapi for every `z.<member>` they use and fails the build when this `z` does
// not name one, so a new use fails the build rather than the Worker (the tests run on zod's own `z`).
import {
  array,
  boolean,
  coerce,
  discriminatedUnion,
  enum as enum_,
  input,
  literal,
  looseObject,
  number,
  object,
  output,
  partialRecord,
  record,
  string,
  tuple,
  union,
  unknown,
  ZodType,
} from "zod/v4";

export * from "zod/v4";
export const z = {
  ZodType,
  array,
  boolean,
  coerce,
  discriminatedUnion,
  enum: enum_,
  input,
  literal,
  looseObject,
  number,
  object,
  output,
  partialRecord,
  record,
  string,
  tuple,
  union,
  unknown,
};
export default z;
