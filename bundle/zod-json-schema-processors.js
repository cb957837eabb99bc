// What zod's classic schemas import as "../core/json-schema-processors.js" in the Worker's bundle
// (wrangler.toml [alias]): zod's own module, but without the JSON Schema generation (toJSONSchema,
// a schema's `~standard.jsonSchema`), which the Worker never calls: the OpenAPI document is made by
// @asteasolutions/zod-to-openapi, which reads only aggregateChecks() (a string's minLength, a
// number's format). The exports below shadow zod's own of the same name; any other comes from zod.
export * from "../node_modules/zod/v4/core/json-schema-processors.js";

const absent = () => {
  throw new Error(
    "zod's JSON Schema generation is left out of the Worker's bundle (bundle/zod-json-schema-processors.js)",
  );
};
export const toJSONSchema = absent;
export const allProcessors = {};
export {
  absent as stringProcessor,
  absent as numberProcessor,
  absent as booleanProcessor,
  absent as bigintProcessor,
  absent as symbolProcessor,
  absent as nullProcessor,
  absent as undefinedProcessor,
  absent as voidProcessor,
  absent as neverProcessor,
  absent as anyProcessor,
  absent as unknownProcessor,
  absent as dateProcessor,
  absent as enumProcessor,
  absent as literalProcessor,
  absent as nanProcessor,
  absent as templateLiteralProcessor,
  absent as fileProcessor,
  absent as successProcessor,
  absent as customProcessor,
  absent as functionProcessor,
  absent as transformProcessor,
  absent as mapProcessor,
  absent as setProcessor,
  absent as arrayProcessor,
  absent as objectProcessor,
  absent as unionProcessor,
  absent as intersectionProcessor,
  absent as tupleProcessor,
  absent as recordProcessor,
  absent as nullableProcessor,
  absent as nonoptionalProcessor,
  absent as defaultProcessor,
  absent as prefaultProcessor,
  absent as catchProcessor,
  absent as pipeProcessor,
  absent as readonlyProcessor,
  absent as promiseProcessor,
  absent as optionalProcessor,
  absent as lazyProcessor,
};
