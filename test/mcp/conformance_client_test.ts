// The official MCP conformance suite's client scenarios, run against unfold's own upstream client
// and OAuth layer (scripts/conformance_client.ts): every check of every scenario passes and the
// client exits 0.
import { deepEqual, equal, ok } from "node:assert/strict";

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const CLIENT = new URL("../../scripts/conformance_client.ts", import.meta.url).pathname;
// The suite as pinned in deno.json ("npm:@modelcontextprotocol/conformance@…").
const SUITE: string = JSON.parse(Deno.readTextFileSync(CONFIG)).imports[
  "@modelcontextprotocol/conformance"
];

const SCENARIOS = [
  "initialize",
  "tools_call",
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/iss-supported",
  "auth/iss-not-advertised",
  "auth/iss-supported-missing",
  "auth/iss-wrong-issuer",
  "auth/iss-unexpected",
  "auth/iss-normalized",
  "auth/metadata-issuer-mismatch",
  "auth/authorization-server-migration",
];

// Scenarios where the client must refuse to go on, and the reason it must give.
const REFUSALS: Record<string, RegExp> = {
  "auth/scope-retry-limit": /Insufficient scope/,
  "auth/resource-mismatch": /Cannot sign in to "conformance": Protected resource .* does not match/,
  "auth/iss-supported-missing":
    /Cannot sign in to "conformance": Issuer mismatch in authorization response/,
  "auth/iss-wrong-issuer":
    /Cannot sign in to "conformance": Issuer mismatch in authorization response/,
  "auth/iss-unexpected":
    /Cannot sign in to "conformance": Issuer mismatch in authorization response/,
  "auth/metadata-issuer-mismatch":
    /Cannot sign in to "conformance": Issuer mismatch in authorization server metadata/,
};

// Each scenario starts the suite (Node) and the client (Deno): a few at a time keeps a shared
// machine responsive and the whole run short.
const PARALLEL = 3;

interface Outcome {
  checks: { id: string; status: string; errorMessage?: string }[];
  clientFailed: boolean;
  output: string;
}

async function run(scenario: string): Promise<Outcome> {
  const dir = await Deno.makeTempDir({ prefix: "unfold-conformance-client-" });
  try {
    const command = `${Deno.execPath()} run -A --quiet --config ${CONFIG} ${CLIENT}`;
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", "--config", CONFIG, SUITE, "client", "--command", command]
        .concat(["--scenario", scenario, "--output-dir", `${dir}/results`]),
      cwd: dir,
      stdin: "null",
    }).output();
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    const found = findChecks(`${dir}/results`);
    if (found === undefined) throw new Error(`conformance wrote no results: ${text}`);
    const checks = JSON.parse(await Deno.readTextFile(found));
    return { checks, clientFailed: text.includes("CLIENT EXITED WITH ERROR"), output: text };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// The results folder is named after the scenario, so "auth/x" makes a folder "auth" first.
function findChecks(dir: string): string | undefined {
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isFile && entry.name === "checks.json") return path;
    if (entry.isDirectory) {
      const found = findChecks(path);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

// Starts every item's work, at most `limit` at a time; each promise is awaited later by its step.
function pool<T>(items: readonly string[], limit: number, work: (item: string) => Promise<T>) {
  let free = limit;
  const waiting: (() => void)[] = [];
  const acquire = () =>
    free > 0 ? (free--, Promise.resolve()) : new Promise<void>((go) => waiting.push(go));
  const release = () => {
    const next = waiting.shift();
    if (next === undefined) free++;
    else next();
  };
  return new Map(items.map((item) => {
    const result = acquire().then(() => work(item)).finally(release);
    result.catch(() => {}); // its step reports the failure
    return [item, result] as const;
  }));
}

Deno.test("the conformance suite's client scenarios pass against unfold's client and OAuth", async (t) => {
  const outcomes = pool(SCENARIOS, PARALLEL, run);
  for (const scenario of SCENARIOS) {
    await t.step(scenario, async () => {
      const { checks, clientFailed, output } = await outcomes.get(scenario)!;
      ok(checks.some((c) => c.status === "SUCCESS"), output);
      deepEqual(checks.filter((c) => c.status === "FAILURE"), [], output);
      equal(clientFailed, false, output);
      const refusal = REFUSALS[scenario];
      if (refusal !== undefined) ok(refusal.test(output), output);
    });
  }
});
