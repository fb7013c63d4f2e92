/**
 * What stands in, in the gateway Worker, for the MCP SDK's code that can never run there: the
 * modules `scripts/build_mcp_standins.ts` generates re-export each SDK chunk but for these names.
 *
 * - The client's OAuth flow (`auth`, and what adapts or finishes it): the Streamable HTTP
 *   transport runs it only with an OAuth `authProvider`, and the Worker's upstreams never get one
 *   (`connectHttp` passes headers). The rest of the client's auth module (the `WWW-Authenticate`
 *   reading and the errors a 401 or 403 raises without a provider) stays the SDK's.
 * - The server's high-level `McpServer`: `createMcpHandler` only asks whether its product is one
 *   (`instanceof`), and the gateway serves the low-level `Server`; with the stand-in the answer is
 *   the same (no), without the class and what it registers.
 * - The server's scope challenge: run only for an `McpServer` or a transport given a resolver,
 *   neither of which the gateway has.
 *
 * Every stand-in throws, saying why, if it is ever reached.
 *
 * @module
 */

// Thrown by every stand-in: what happened, and why it is not in the Worker.
function unavailable(name: string, why: string): never {
  throw new Error(`The MCP SDK's ${name} is not in the gateway Worker: ${why}`);
}

const NO_OAUTH = "its upstreams take headers, never an OAuth provider";
const NO_SCOPES = "it serves the low-level Server, with no scope challenge resolver";

/** A function of the SDK standing in: it throws. */
export type StandIn = (...args: unknown[]) => never;

const oauth = (): StandIn => () => unavailable("OAuth client flow", NO_OAUTH);
const scopes = (): StandIn => () => unavailable("scope challenge", NO_SCOPES);

/** The client's OAuth flow: throws (no upstream of the Worker has an OAuth provider). */
export const auth: StandIn = oauth();
/** Adapts an OAuth provider for the transport: throws, as {@linkcode auth}. */
export const adaptOAuthProvider: StandIn = oauth();
/** Reads an authorization callback (`finishAuth`): throws, as {@linkcode auth}. */
export const resolveAuthorizationCallbackParams: StandIn = oauth();

/** Finds a tool call's scope challenge: throws (the gateway sets no resolver). */
export const findScopeChallenge: StandIn = scopes();
/** Answers a scope challenge: throws, as {@linkcode findScopeChallenge}. */
export const createScopeChallengeResponse: StandIn = scopes();
/** A scope challenge's resource metadata URL: throws, as {@linkcode findScopeChallenge}. */
export const scopeChallengeResourceMetadataUrl: StandIn = scopes();

/**
 * The high-level server class, standing in: nothing is an instance of it, as nothing the gateway
 * serves is an `McpServer`; making one throws.
 */
export class McpServer {
  /** Throws: the gateway Worker serves the low-level `Server`. */
  constructor() {
    unavailable("McpServer", "the gateway serves the low-level Server");
  }
}
