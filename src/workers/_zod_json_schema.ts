/**
 * What zod's JSON Schema output modules export (`zod/v4/core/to-json-schema.js` and
 * `json-schema-processors.js`), as stand-ins for the gateway Worker (aliases in
 * `wrangler.gateway.toml`). `/mcp` never turns a zod schema into JSON Schema: its tools carry JSON
 * Schema already, and `/openapi.json`, which does, is the API Worker's. The SDK's classic zod
 * schemas still make their `~standard.jsonSchema` methods when they are built, so the two method
 * factories return methods; calling any of it throws, saying why.
 *
 * @module
 */

// Thrown by every stand-in: what happened, and where the real output is.
function unavailable(name: string): never {
  throw new Error(
    `zod's JSON Schema output (${name}) is not in the gateway Worker: /mcp takes JSON Schema as ` +
      "it is, and /openapi.json is the API Worker's",
  );
}

/** A function of zod's JSON Schema output, standing in: it throws. */
export type StandIn = (...args: unknown[]) => never;

const stand_in = (name: string): StandIn => () => unavailable(name);

/** The factory of `toJSONSchema` methods: a method that throws. */
export const createToJSONSchemaMethod = (..._args: unknown[]): StandIn => stand_in("toJSONSchema");
/** The factory of `~standard.jsonSchema` methods: a method that throws. */
export const createStandardJSONSchemaMethod = (..._args: unknown[]): StandIn =>
  stand_in("~standard.jsonSchema");
/** Throws: not in the gateway Worker. */
export const initializeContext: StandIn = stand_in("initializeContext");
/** Throws: not in the gateway Worker. */
export const handleUnrepresentable: StandIn = stand_in("handleUnrepresentable");
/** Throws: not in the gateway Worker. */
export const processSchema: StandIn = stand_in("processSchema");
/** Throws: not in the gateway Worker. */
export const extractDefs: StandIn = stand_in("extractDefs");
/** Throws: not in the gateway Worker. */
export const finalize: StandIn = stand_in("finalize");
/** Throws: not in the gateway Worker. */
export const process: StandIn = stand_in("process");
/** Throws: not in the gateway Worker. */
export const aggregateChecks: StandIn = stand_in("aggregateChecks");
/** Throws: not in the gateway Worker. */
export const stringProcessor: StandIn = stand_in("stringProcessor");
/** Throws: not in the gateway Worker. */
export const numberProcessor: StandIn = stand_in("numberProcessor");
/** Throws: not in the gateway Worker. */
export const booleanProcessor: StandIn = stand_in("booleanProcessor");
/** Throws: not in the gateway Worker. */
export const bigintProcessor: StandIn = stand_in("bigintProcessor");
/** Throws: not in the gateway Worker. */
export const symbolProcessor: StandIn = stand_in("symbolProcessor");
/** Throws: not in the gateway Worker. */
export const nullProcessor: StandIn = stand_in("nullProcessor");
/** Throws: not in the gateway Worker. */
export const undefinedProcessor: StandIn = stand_in("undefinedProcessor");
/** Throws: not in the gateway Worker. */
export const voidProcessor: StandIn = stand_in("voidProcessor");
/** Throws: not in the gateway Worker. */
export const neverProcessor: StandIn = stand_in("neverProcessor");
/** Throws: not in the gateway Worker. */
export const anyProcessor: StandIn = stand_in("anyProcessor");
/** Throws: not in the gateway Worker. */
export const unknownProcessor: StandIn = stand_in("unknownProcessor");
/** Throws: not in the gateway Worker. */
export const dateProcessor: StandIn = stand_in("dateProcessor");
/** Throws: not in the gateway Worker. */
export const enumProcessor: StandIn = stand_in("enumProcessor");
/** Throws: not in the gateway Worker. */
export const literalProcessor: StandIn = stand_in("literalProcessor");
/** Throws: not in the gateway Worker. */
export const nanProcessor: StandIn = stand_in("nanProcessor");
/** Throws: not in the gateway Worker. */
export const templateLiteralProcessor: StandIn = stand_in("templateLiteralProcessor");
/** Throws: not in the gateway Worker. */
export const fileProcessor: StandIn = stand_in("fileProcessor");
/** Throws: not in the gateway Worker. */
export const successProcessor: StandIn = stand_in("successProcessor");
/** Throws: not in the gateway Worker. */
export const customProcessor: StandIn = stand_in("customProcessor");
/** Throws: not in the gateway Worker. */
export const functionProcessor: StandIn = stand_in("functionProcessor");
/** Throws: not in the gateway Worker. */
export const transformProcessor: StandIn = stand_in("transformProcessor");
/** Throws: not in the gateway Worker. */
export const mapProcessor: StandIn = stand_in("mapProcessor");
/** Throws: not in the gateway Worker. */
export const setProcessor: StandIn = stand_in("setProcessor");
/** Throws: not in the gateway Worker. */
export const arrayProcessor: StandIn = stand_in("arrayProcessor");
/** Throws: not in the gateway Worker. */
export const objectProcessor: StandIn = stand_in("objectProcessor");
/** Throws: not in the gateway Worker. */
export const unionProcessor: StandIn = stand_in("unionProcessor");
/** Throws: not in the gateway Worker. */
export const intersectionProcessor: StandIn = stand_in("intersectionProcessor");
/** Throws: not in the gateway Worker. */
export const tupleProcessor: StandIn = stand_in("tupleProcessor");
/** Throws: not in the gateway Worker. */
export const recordProcessor: StandIn = stand_in("recordProcessor");
/** Throws: not in the gateway Worker. */
export const nullableProcessor: StandIn = stand_in("nullableProcessor");
/** Throws: not in the gateway Worker. */
export const nonoptionalProcessor: StandIn = stand_in("nonoptionalProcessor");
/** Throws: not in the gateway Worker. */
export const defaultProcessor: StandIn = stand_in("defaultProcessor");
/** Throws: not in the gateway Worker. */
export const prefaultProcessor: StandIn = stand_in("prefaultProcessor");
/** Throws: not in the gateway Worker. */
export const catchProcessor: StandIn = stand_in("catchProcessor");
/** Throws: not in the gateway Worker. */
export const pipeProcessor: StandIn = stand_in("pipeProcessor");
/** Throws: not in the gateway Worker. */
export const readonlyProcessor: StandIn = stand_in("readonlyProcessor");
/** Throws: not in the gateway Worker. */
export const promiseProcessor: StandIn = stand_in("promiseProcessor");
/** Throws: not in the gateway Worker. */
export const optionalProcessor: StandIn = stand_in("optionalProcessor");
/** Throws: not in the gateway Worker. */
export const lazyProcessor: StandIn = stand_in("lazyProcessor");
/** Throws: not in the gateway Worker. */
export const allProcessors: StandIn = stand_in("allProcessors");
/** Throws: not in the gateway Worker. */
export const toJSONSchema: StandIn = stand_in("toJSONSchema");
