import { deepEqual, equal } from "node:assert/strict";
import type { DurableObjectStorage } from "cloudflare:workers";
import { CATALOG_EXPIRY, expireOrWait, SESSION_EXPIRY, ttlMs } from "../../src/workers/_expiry.ts";

// A storage that records what an alarm did.
function storage(
  records: Record<string, unknown>,
): { storage: DurableObjectStorage; did: string[] } {
  const did: string[] = [];
  const fake = {
    get: (key: string) => Promise.resolve(records[key]),
    deleteAll: () => Promise.resolve(void did.push("deleteAll")),
    setAlarm: (at: number) => Promise.resolve(void did.push(`setAlarm ${at}`)),
  };
  return { storage: fake as unknown as DurableObjectStorage, did };
}

Deno.test("an alarm deletes an object a time to live after its last use, else waits until then", async () => {
  const now = Date.now();
  const old = storage({ meta: { lastUsed: now - 2_000 } });
  await expireOrWait(old.storage, CATALOG_EXPIRY, 1_000);
  deepEqual(old.did, ["deleteAll"]);
  const recent = storage({ state: { updatedAt: now + 60_000 } });
  await expireOrWait(recent.storage, SESSION_EXPIRY, 1_000);
  deepEqual(recent.did, [`setAlarm ${now + 61_000}`]);
  const empty = storage({});
  await expireOrWait(empty.storage, SESSION_EXPIRY, 1_000);
  deepEqual(empty.did, []);
});

Deno.test("the time to live is the Worker's session time to live", () => {
  equal(ttlMs({ UNFOLD_SESSION_TTL_SECONDS: "2" }), 2_000);
});
