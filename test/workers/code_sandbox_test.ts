import { startWrangler } from "../e2e/_processes.ts";
import { replayThroughRoute, sandboxContract } from "../_contracts/sandbox_contract.ts";

// The Worker Loader sandbox in real workerd (wrangler dev), as the API Worker serves it: a host
// that runs the tools itself replays each run through /v1/route. A local workerd runs an
// isolate on the Worker's own thread: a script still running would hold the next request, so
// the run after each bomb is what shows that nothing was left running.
sandboxContract("WorkerLoaderSandbox, replayed through the API Worker's /v1/route", async () => {
  const worker = await startWrangler("wrangler.toml");
  const post = (body: unknown) =>
    fetch(`${worker.url}/v1/route`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  return {
    run: (code, options) => replayThroughRoute(post, code, options),
    leftover: () => Promise.resolve(0),
    close: () => worker.close(),
  };
});
