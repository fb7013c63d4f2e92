/**
 * The OAuth client of one upstream, as the MCP SDK's `auth()` flow asks for it: where tokens and
 * the registration are kept (an {@linkcode OAuthStore}), the client's metadata, the configured
 * pre-registration or client ID metadata document, and the PKCE verifier and state of the flow in
 * progress (memory only).
 *
 * @module
 */

import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { OAuthRecord, OAuthStore } from "./store.ts";

/** The `oauth` block of a server entry in the config. */
export interface OAuthSettings {
  /** A client ID registered with the authorization server beforehand. */
  clientId?: string;
  /** Its secret, for a confidential client. */
  clientSecret?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scopes?: string[];
  /** An HTTPS URL of this client's metadata document, used as its client ID where supported. */
  clientMetadataUrl?: string;
}

/** Options of {@linkcode StoredOAuthProvider}. */
export interface StoredOAuthProviderOptions {
  /** The server's name in the config. */
  server: string;
  /** The server's MCP endpoint. */
  url: string;
  /** Where the sign-in is kept. */
  store: OAuthStore;
  /** Where the authorization server sends the browser back to (a loopback URL). */
  redirectUrl: string;
  /** The server entry's `oauth` block. */
  settings?: OAuthSettings;
  /**
   * The clock, in milliseconds since the epoch (expiry times).
   * @default {Date.now}
   */
  now?: () => number;
}

/**
 * An {@linkcode OAuthClientProvider} over an {@linkcode OAuthStore}: what the SDK saves goes to
 * the store, except the PKCE verifier, the state and discovery results, which stay in memory;
 * a configured `clientId`/`clientSecret` is used as is and never written.
 *
 * @example Usage
 * ```ts
 * import { StoredOAuthProvider } from "./provider.ts";
 * import { memoryOAuthStore } from "./store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const store = memoryOAuthStore();
 * const provider = new StoredOAuthProvider({ server: "gh", url: "https://example.com/mcp", store, redirectUrl: "http://127.0.0.1:5000/callback", now: () => 1_000 });
 * await provider.saveTokens({ access_token: "a", token_type: "Bearer", expires_in: 60 });
 * equal((await store.read())?.expiresAt, 61_000);
 * equal((await provider.tokens())?.access_token, "a");
 * ```
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  readonly #options: StoredOAuthProviderOptions;
  #record: OAuthRecord | undefined;
  #loaded = false;
  #verifier: string | undefined;
  #state: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #configuredClient: StoredOAuthClientInformation | undefined;
  #authorizationUrl: URL | undefined;
  /** The configured client ID metadata document, if any. */
  readonly clientMetadataUrl?: string;

  /**
   * Makes the provider; nothing is read until the SDK asks.
   *
   * @param options The server, the store, the redirect URL and the `oauth` settings.
   */
  constructor(options: StoredOAuthProviderOptions) {
    this.#options = options;
    const { clientId, clientSecret, clientMetadataUrl } = options.settings ?? {};
    if (clientMetadataUrl !== undefined) this.clientMetadataUrl = clientMetadataUrl;
    if (clientId !== undefined) {
      this.#configuredClient = {
        client_id: clientId,
        ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
        redirect_uris: [options.redirectUrl],
      };
    }
  }

  /** The URL the authorization server sends the browser back to. */
  get redirectUrl(): string {
    return this.#options.redirectUrl;
  }

  /** What unfold says about itself when it registers. */
  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.#options.settings?.scopes;
    return {
      client_name: "unfold",
      redirect_uris: [this.#options.redirectUrl],
      ...(scopes === undefined || scopes.length === 0 ? {} : { scope: scopes.join(" ") }),
    };
  }

  /** The authorization URL of the flow in progress, once the SDK has made one. */
  get authorizationUrl(): URL | undefined {
    return this.#authorizationUrl;
  }

  /** The state sent with the authorization request, to check the redirect against. */
  get expectedState(): string | undefined {
    return this.#state;
  }

  /**
   * When the stored access token expires, if the server said.
   *
   * @returns Milliseconds since the epoch, or `undefined`.
   */
  async expiresAt(): Promise<number | undefined> {
    return (await this.#load())?.expiresAt;
  }

  /**
   * A fresh random state for an authorization request.
   *
   * @returns The state.
   */
  state(): string {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    this.#state = btoa(String.fromCharCode(...bytes)).replace(
      /[+/=]/g,
      (c) => c === "+" ? "-" : c === "/" ? "_" : "",
    );
    return this.#state;
  }

  /**
   * The client registration: the configured one, else the stored one.
   *
   * @returns The registration, or `undefined`.
   */
  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    return this.#configuredClient ?? (await this.#load())?.client;
  }

  /**
   * Keeps a registration: a configured client only in memory (with the issuer the SDK stamps on
   * it), any other in the store.
   *
   * @param information The registration.
   * @param _ctx The authorization server it belongs to (stamped on it by the SDK already).
   */
  async saveClientInformation(
    information: StoredOAuthClientInformation,
    _ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    if (this.#configuredClient !== undefined) {
      this.#configuredClient = information;
      return;
    }
    await this.#update((record) => ({ ...record, client: information }));
  }

  /**
   * The stored tokens.
   *
   * @returns The tokens, or `undefined` when not signed in.
   */
  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.#load())?.tokens;
  }

  /**
   * Stores new tokens and when they expire.
   *
   * @param tokens The tokens from the authorization server.
   */
  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const now = (this.#options.now ?? Date.now)();
    const held = await this.#load();
    // A refresh may leave out the refresh token, meaning "keep using the one you have".
    const refresh = tokens.refresh_token ?? held?.tokens?.refresh_token;
    const kept = refresh === undefined ? tokens : { ...tokens, refresh_token: refresh };
    await this.#update((record, stored) => {
      // A newer sign-in stored since this one was read (`unfold login` registered anew), or the
      // record removed (signed out): these tokens belong to the sign-in that was replaced.
      if (this.#replaced(held, stored)) return undefined;
      const { expiresAt: _, ...rest } = record;
      return {
        ...rest,
        tokens: kept,
        ...(typeof tokens.expires_in === "number"
          ? { expiresAt: now + tokens.expires_in * 1000 }
          : {}),
      };
    });
  }

  // Whether the stored record is another sign-in than the one this process read: it was removed,
  // or its registration is another (a sign-in with a configured client shares one: never).
  #replaced(held: OAuthRecord | undefined, stored: OAuthRecord | undefined): boolean {
    if (held?.tokens === undefined) return false;
    if (stored === undefined) return true;
    if (this.#configuredClient !== undefined) return false;
    return stored.client?.client_id !== held.client?.client_id;
  }

  /**
   * Remembers the authorization URL; the caller sends the user there.
   *
   * @param authorizationUrl The URL.
   */
  redirectToAuthorization(authorizationUrl: URL): void {
    this.#authorizationUrl = authorizationUrl;
  }

  /**
   * Keeps the PKCE verifier in memory only.
   *
   * @param codeVerifier The verifier.
   */
  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier;
  }

  /**
   * The PKCE verifier of the flow in progress.
   *
   * @returns The verifier.
   * @throws {Error} When no flow is in progress.
   */
  codeVerifier(): string {
    if (this.#verifier === undefined) {
      throw new Error(`Cannot sign in to ${JSON.stringify(this.#options.server)}: no flow started`);
    }
    return this.#verifier;
  }

  /**
   * Keeps discovery results for this process only.
   *
   * @param state The results.
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  /**
   * The discovery results of this process.
   *
   * @returns The results, or `undefined`.
   */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  /**
   * Forgets what the server said is no longer valid.
   *
   * @param scope What to forget.
   */
  async invalidateCredentials(
    scope: "all" | "client" | "tokens" | "verifier" | "discovery",
  ): Promise<void> {
    if (scope === "all" || scope === "verifier") this.#verifier = undefined;
    if (scope === "all" || scope === "discovery") this.#discovery = undefined;
    if (scope === "tokens") {
      // Another process (a second gateway, `unfold login`) may have refreshed or signed in since
      // we read the store: its tokens are not the ones the server refused, so keep them.
      const held = this.#record?.tokens?.access_token;
      const stored = await this.#options.store.read();
      if (stored?.tokens !== undefined && stored.tokens.access_token !== held) {
        this.#record = stored;
        this.#loaded = true;
        return;
      }
    }
    if (scope === "all" || scope === "client" || scope === "tokens") {
      const refused = this.#record?.tokens?.access_token;
      await this.#update((record, stored) => {
        // The same check as above, on the record as it is when written.
        const theirs = stored?.tokens?.access_token;
        if (scope === "tokens" && theirs !== undefined && theirs !== refused) return undefined;
        const next = { ...record };
        if (scope !== "client") {
          delete next.tokens;
          delete next.expiresAt;
        }
        if (scope !== "tokens") delete next.client;
        return next;
      });
    }
    // The PKCE verifier is of no use once its code is spent, nor the state.
    if (scope === "verifier") this.#state = undefined;
  }

  /**
   * Reads the store again (another process may have refreshed or signed in).
   *
   * @returns The stored tokens, or `undefined`.
   */
  async reload(): Promise<StoredOAuthTokens | undefined> {
    this.#loaded = false;
    return (await this.#load())?.tokens;
  }

  /**
   * Forgets the verifier and state once the code they protected has been exchanged.
   */
  finishFlow(): void {
    this.#verifier = undefined;
    this.#state = undefined;
    this.#authorizationUrl = undefined;
  }

  #empty(): OAuthRecord {
    return { server: this.#options.server, url: this.#options.url };
  }

  async #load(): Promise<OAuthRecord | undefined> {
    if (!this.#loaded) {
      this.#record = await this.#options.store.read();
      this.#loaded = true;
    }
    return this.#record;
  }

  // A change of the record, applied to it as stored now when the store can (another process may
  // have refreshed or signed in since): `undefined` from `change` leaves the stored record as is.
  async #update(
    change: (record: OAuthRecord, stored: OAuthRecord | undefined) => OAuthRecord | undefined,
  ): Promise<void> {
    const { store } = this.#options;
    if (store.update !== undefined) {
      this.#record = await store.update((stored) =>
        change(stored ?? this.#empty(), stored) ?? stored
      );
      this.#loaded = true;
      return;
    }
    const loaded = await this.#load();
    const next = change(loaded ?? this.#empty(), loaded);
    if (next === undefined) return;
    await store.write(next);
    this.#record = next;
  }
}
