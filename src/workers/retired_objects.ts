/**
 * The gateway Worker's own Durable Object classes, retired. A gateway deployed before it bound the
 * API Worker's objects kept its sessions and catalogues in classes of its own; its migrations name
 * them, so it still exports classes of those names. No binding of the gateway names them, so
 * nothing can call them: they keep only their alarms, which expire what the old objects hold as
 * the live classes (`session_object.ts`, `catalog_object.ts`) would, without bundling the live
 * classes' code into the gateway.
 *
 * @module
 */

import { DurableObject } from "cloudflare:workers";
import { CATALOG_EXPIRY, expireOrWait, SESSION_EXPIRY, ttlMs } from "./_expiry.ts";

/** An old catalogue object of the gateway: deleted a time to live after its last load. */
export class RetiredCatalogObject extends DurableObject<Record<string, unknown>> {
  /** Deletes the catalogue once nobody has loaded it for a time to live; otherwise waits again. */
  async alarm(): Promise<void> {
    await expireOrWait(this.ctx.storage, CATALOG_EXPIRY, ttlMs(this.env));
  }
}

/** An old session object of the gateway: deleted a time to live after its last update. */
export class RetiredSessionObject extends DurableObject<Record<string, unknown>> {
  /** Deletes the session once it has been idle for its time to live; otherwise waits again. */
  async alarm(): Promise<void> {
    await expireOrWait(this.ctx.storage, SESSION_EXPIRY, ttlMs(this.env));
  }
}
