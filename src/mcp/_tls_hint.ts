/**
 * Names the variable to set when a stdio server dies on a TLS certificate its client refused, as
 * behind a proxy that inspects TLS: the host otherwise sees only "Connection closed".
 *
 * @module
 */

// What a TLS client says when it refuses a certificate (Deno's rustls; Node's OpenSSL codes), as
// behind a proxy that inspects TLS with its own certificate authority.
const TLS_REFUSED =
  /invalid peer certificate|UnknownIssuer|unable to get local issuer certificate|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_UNTRUSTED|certificate verify failed/;

/**
 * The variable to set when a server's error output says a TLS certificate was refused, or `""`.
 *
 * @param output The end of the server's error output.
 * @param command The command that runs the server.
 * @returns A sentence naming the variable, ending in a space; empty when the output says no such
 * thing.
 *
 * @example Usage
 * ```ts
 * import { tlsHint } from "./_tls_hint.ts";
 * import { equal, match } from "node:assert/strict";
 *
 * match(tlsHint("error: invalid peer certificate: UnknownIssuer", "deno"), /DENO_CERT/);
 * match(tlsHint("Error: unable to get local issuer certificate", "npx"), /NODE_EXTRA_CA_CERTS/);
 * equal(tlsHint("listening", "npx"), "");
 * ```
 */
export function tlsHint(output: string, command: string): string {
  if (!TLS_REFUSED.test(output.slice(-4_000))) return "";
  const deno = /(^|[\\/])deno(\.exe)?$/.test(command);
  const variable = deno ? "DENO_CERT (or DENO_TLS_CA_STORE=system)" : "NODE_EXTRA_CA_CERTS";
  return `a TLS certificate was refused (a proxy that inspects TLS needs its certificate ` +
    `authority trusted): set ${variable} to the authority's PEM file in the gateway's ` +
    "environment, which passes it to the server; ";
}
