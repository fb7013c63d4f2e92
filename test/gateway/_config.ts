/**
 * A gateway config as tests read it: the parsed value, or the refusal thrown, so a case can
 * assert on either with `throws`.
 */

import { type GatewayConfig, parseGatewayConfig } from "../../src/gateway/config/parse.ts";

/** The parsed config; throws the config error when the config is refused. */
export function parsedConfig(
  input: unknown,
  env: Readonly<Record<string, string | undefined>> = {},
): GatewayConfig {
  const parsed = parseGatewayConfig(input, env);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}
