/**
 * The describe-first modes, apart from the session route that applies them: the gateway's config
 * checks them before its upstreams are spawned, and loading the route (the bridge, its rendering
 * and schema checks) for one list of names held that spawn back.
 *
 * @module
 */

// A type-only import: erased, so the route is still not loaded with this list.
import type { SessionRouteOptions } from "./session_route.ts";
import { codeList } from "../utils/code_list.ts";

/** Whether an execute of a tool not yet described is refused (`enforce`) or not (`off`). */
export type DescribeFirstMode = NonNullable<SessionRouteOptions["describeFirst"]>;

/**
 * Every describe-first mode: `enforce` refuses an execute of a tool not yet described, `off` does not.
 *
 * @example Usage
 * ```ts
 * import { DESCRIBE_FIRST_MODES } from "./describe_first.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(DESCRIBE_FIRST_MODES, ["enforce", "off"]);
 * ```
 */
export const DESCRIBE_FIRST_MODES: readonly DescribeFirstMode[] = codeList<DescribeFirstMode>(
  { enforce: 0, off: 0 },
);
