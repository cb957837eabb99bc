// What zod's classic schemas import as "../core/to-json-schema.js" in the Worker's bundle (wrangler.toml
// [alias]): zod's own module, but a schema's toJSONSchema() and `~standard.jsonSchema` methods throw
// when called (the Worker never calls them; bundle/zod-json-schema-processors.js says why).
export * from "../node_modules/zod/v4/core/to-json-schema.js";

const absent = () => {
  throw new Error(
    "zod's JSON Schema generation is left out of the Worker's bundle (bundle/zod-to-json-schema.js)",
  );
};
export const createToJSONSchemaMethod = () => absent;
export const createStandardJSONSchemaMethod = () => absent;
