/**
 * What the MCP SDK's packages import as their runtime shims, for the gateway Worker (an alias in
 * `wrangler.gateway.toml`): the SDK's default JSON Schema validator is the project's bounded one,
 * so the Worker carries no second validator (the SDK's own shims bundle `@cfworker/json-schema`
 * once per package). The SDK's schemas are then built on first use rather than at start.
 *
 * @module
 */

import { BOUNDED_VALIDATOR } from "../mcp/_validator.ts";
import type { JsonSchemaType, JsonSchemaValidator } from "@modelcontextprotocol/client";

/** The SDK's default validator provider: the bounded validator. */
export class DefaultJsonSchemaValidator {
  /**
   * A validator for one schema.
   *
   * @param schema The JSON Schema.
   * @returns The validator.
   */
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    return BOUNDED_VALIDATOR.getValidator<T>(schema);
  }
}

/** Whether `fetch` can fail for CORS: never on Workers. */
export const CORS_IS_POSSIBLE = false;

/** The server package's stdio streams: Workers have none. */
export const process = {
  get stdin(): never {
    throw new Error("stdio is not available on Workers: use Streamable HTTP");
  },
  get stdout(): never {
    throw new Error("stdio is not available on Workers: use Streamable HTTP");
  },
};
