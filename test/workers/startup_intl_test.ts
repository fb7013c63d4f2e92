// The API Worker's startup must not reach Intl: its first use loads locale data, about 11 ms of
// CPU that every fresh isolate would pay before its first request. No static import of the code
// under test, so that loading it happens after the probes are in place.
import { deepEqual } from "node:assert/strict";

Deno.test("the API Worker's modules and warm-up start without Intl", async () => {
  const reached: string[] = [];
  const numberFormat = Number.prototype.toLocaleString;
  const NumberFormat = Intl.NumberFormat;
  Number.prototype.toLocaleString = function (this: number, ...args) {
    reached.push("Number.prototype.toLocaleString");
    return numberFormat.apply(this, args);
  };
  Intl.NumberFormat = function (...args: ConstructorParameters<typeof NumberFormat>) {
    reached.push("Intl.NumberFormat");
    return new NumberFormat(...args);
  } as typeof NumberFormat;
  try {
    const { workerApi } = await import("../../src/workers/api.ts");
    workerApi({});
  } finally {
    Number.prototype.toLocaleString = numberFormat;
    Intl.NumberFormat = NumberFormat;
  }
  deepEqual(reached, []);
});
