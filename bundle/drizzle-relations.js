// What drizzle-orm's modules import as "../relations.js" in the Worker's bundle (wrangler.toml
// [alias]): its relational queries (`db.query`), which the Worker never builds. Its handles are
// made without a schema (worker/db/handles.ts, whose types leave `db.query` out), and drizzle only
// reaches these names on that path, so each one here says so instead of running.
const unused = () => {
  throw new Error("drizzle's relational queries are left out of the Worker's bundle");
};
export class Relation {}
export class One extends Relation {}
export class Many extends Relation {}
export class Relations {}
export const relations = unused;
export const createOne = unused;
export const createMany = unused;
export const createTableRelationsHelpers = unused;
export const extractTablesRelationalConfig = unused;
export const getOperators = unused;
export const getOrderByOperators = unused;
export const mapRelationalRow = unused;
export const normalizeRelation = unused;
