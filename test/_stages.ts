/**
 * The two stages of `deno task test`, declared once. The unit stage is every test file not listed
 * here, run with no permission to start a process or open a socket (core, schema, ranking, HTTP
 * in-process through `app.request()`): a file that needs either fails there with "Requires run
 * access" or "Requires net access" until it is listed below. The integration stage is the listed
 * files plus the doc tests, with every permission, the slowest first.
 *
 * The unit files run in {@linkcode UNIT_SHARES} modules (`test/_unit/share_N.ts`), each importing
 * its share of them: `deno test` gives every module a worker of its own, some 0.35 s of CPU each
 * on the shared 2-core machine (the stage took 108 s of CPU with a worker per file, 48 s in four
 * shares). A unit test therefore may not count on a module state no other file touched (one
 * that needs a fresh engine starts a process: an integration file); a failure still names its own
 * file and line.
 *
 * Run as a script: `deno run --allow-read --allow-run --allow-env test/_stages.ts unit|integration`
 * (what `deno task test:unit` and `deno task test:integration` do).
 *
 * @module
 */

/**
 * The files that start processes, servers, workerd or a browser, in the order they start: the
 * slowest first, so that none of them is left running alone at the end.
 */
export const INTEGRATION: readonly string[] = [
  // The slowest (real servers from npm, wrangler dev, Chromium), measured in a full run: first.
  // The real hosts (Claude Code, Codex CLI, Gemini CLI), one session each.
  "test/hosts/claude_code_test.ts",
  "test/hosts/roots_test.ts",
  "test/hosts/codex_test.ts",
  "test/hosts/gemini_test.ts",
  "test/hosts/recorded_server_test.ts",
  "test/page/gateway_page_test.ts",
  "test/e2e/ranking_parity_test.ts",
  "test/gateway/worker_face_test.ts",
  "test/gateway/worker_ceiling_test.ts",
  "test/gateway/result_ceiling_test.ts",
  "test/workers/code_sandbox_test.ts",
  "test/e2e/code_mode_test.ts",
  "test/gateway/code_mode_test.ts",
  "test/gateway/code_mode_worker_test.ts",
  "test/deno/code_sandbox_test.ts",
  "test/gateway/chaos/snapshots_test.ts",
  "test/mcp/conformance_client_test.ts",
  "test/readme_test.ts",
  "test/cli/setup_test.ts",
  "test/cli/setup_hosts_test.ts",
  "test/cli/spawn_after_checks_test.ts",
  // Real fsync: 200 rounds of setup and --undo as transactions, two writers at once.
  "test/cli/hosts/setup_concurrency_test.ts",
  // Two real `unfold approve` processes at once, 4 rounds, each listing a stdio upstream.
  "test/cli/approve_concurrency_test.ts",
  "test/workers/gateway_binding_test.ts",
  "test/gateway/conformance_test.ts",
  "test/gateway/chaos/lazy_test.ts",
  "test/cli/args_test.ts",
  "test/gateway/worker_profiles_test.ts",
  "test/gateway/chaos/first_start_test.ts",
  "test/gateway/chaos/startup_test.ts",
  "test/gateway/chaos/trust_rug_test.ts",
  "test/gateway/chaos/trust_relist_test.ts",
  "test/gateway/fresh_clone_test.ts",
  "test/workers/catalog_store_test.ts",
  "test/workers/prepare_asset_test.ts",
  "test/page/page_test.ts",
  "test/workers/durable_store_test.ts",
  "test/gateway/chaos/trust_test.ts",
  "test/gateway/chaos/era_results_test.ts",
  "test/gateway/chaos/era_list_changed_test.ts",
  // The rest, by path.
  "test/cli/hints_test.ts",
  "test/cli/inspect_test.ts",
  "test/cli/install_test.ts",
  "test/cli/login_callback_test.ts",
  "test/cli/login_test.ts",
  "test/cli/main_test.ts",
  "test/cli/learn_e2e_test.ts",
  "test/cli/mistakes_test.ts",
  "test/cli/profile_env_test.ts",
  "test/cli/unset_variable_test.ts",
  "test/cli/bad_entry_test.ts",
  "test/cli/quick_start_test.ts",
  "test/deno/ranking_fifo_test.ts",
  "test/deno/serve_test.ts",
  "test/e2e/deno_server_test.ts",
  "test/e2e/long_request_test.ts",
  "test/e2e/worker_results_test.ts",
  "test/e2e/worker_test.ts",
  "test/examples/deno_host_test.ts",
  "test/examples/http_hosts_test.ts",
  "test/examples/native_examples_test.ts",
  "test/examples/oauth_server_test.ts",
  "test/examples/quickstart_test.ts",
  "test/external_project_test.ts",
  "test/gateway/chaos/exit_test.ts",
  "test/gateway/chaos/files_test.ts",
  "test/gateway/chaos/http_upstream_test.ts",
  "test/gateway/chaos/lazy_pins_test.ts",
  "test/gateway/chaos/neighbours_test.ts",
  "test/gateway/chaos/quarantine_test.ts",
  "test/gateway/chaos/upstream_answers_test.ts",
  "test/gateway/command_not_found_test.ts",
  "test/cli/hosts/files_test.ts",
  "test/gateway/faces/http_face_test.ts",
  "test/gateway/inspector_cli_test.ts",
  "test/gateway/overview_test.ts",
  "test/gateway/profile_boundary_test.ts",
  "test/gateway/roots_test.ts",
  "test/gateway/prototype_names_test.ts",
  "test/gateway/faces/profile_http_test.ts",
  "test/gateway/config/profiles_test.ts",
  "test/gateway/protocol_test.ts",
  "test/gateway/quiet_test.ts",
  "test/gateway/faces/stdio_test.ts",
  "test/gateway/faces/stdio_input_test.ts",
  "test/gateway/unavailable_server_test.ts",
  "test/http/openapi_client_test.ts",
  "test/layers_test.ts",
  "test/lean_start_test.ts",
  "test/mcp/client_test.ts",
  "test/mcp/http_client_test.ts",
  "test/mcp/oauth_login_test.ts",
  "test/mcp/stdio_test.ts",
  "test/mcp/upstream_faults_test.ts",
  "test/mod_test.ts",
  "test/utils/regular_file_test.ts",
  "test/schema/cold_validate_test.ts",
  "test/workers/api_binding_test.ts",
  "test/workers/bundle_test.ts",
  "test/workers/quiet_dev_test.ts",
];

/** The permissions of the unit stage: read, environment, temporary files; no run, net or ffi. */
export const UNIT_PERMISSIONS: readonly string[] = [
  "--allow-read",
  "--allow-env",
  "--allow-sys",
  "--allow-write",
];

const COMMON = ["test", "--node-modules-dir=auto", "--no-check", "--parallel"];

/**
 * How many modules the unit stage runs its files in: more than the cores of a CI machine, so that
 * a share that ends early leaves no core idle while another runs.
 */
export const UNIT_SHARES = 4;

/** The module that runs share `index` of the unit files. */
export function unitShareModule(index: number): string {
  return `test/_unit/share_${index}.ts`;
}

/**
 * The unit files of one share: every {@linkcode UNIT_SHARES}th file, in path order, so that each
 * file is in exactly one share and the heavy ones spread.
 *
 * @param index The share, from 0.
 * @param root The repository's root.
 * @returns The files, relative to the root.
 */
export function unitShare(index: number, root = "."): string[] {
  return unitFiles(root).filter((_, i) => i % UNIT_SHARES === index);
}

/** Every test file under `test/` that is not an integration file. */
export function unitFiles(root = "."): string[] {
  const integration = new Set(INTEGRATION);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(`${root}/${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) walk(path);
      else if (entry.name.endsWith("_test.ts") && !integration.has(path)) found.push(path);
    }
  };
  walk("test");
  return found.sort();
}

/**
 * The `deno test` arguments of a stage (after `deno`): the unit stage ignores the integration
 * files; the integration stage names them, the slowest first, and adds the doc tests.
 *
 * @param stage Which stage.
 * @returns The words to pass to `deno`.
 */
export function stageArgs(stage: "unit" | "integration"): string[] {
  if (stage === "unit") {
    const shares = Array.from({ length: UNIT_SHARES }, (_, i) => unitShareModule(i));
    return [...COMMON, ...UNIT_PERMISSIONS, ...shares];
  }
  // Doc tests (JSDoc examples and Markdown code blocks) run here: some start servers.
  return [...COMMON, "-A", "--doc", ...INTEGRATION, `--ignore=${unitFiles().join(",")}`, "."];
}

if (import.meta.main) {
  const stage = Deno.args[0];
  if (stage !== "unit" && stage !== "integration") {
    // deno-lint-ignore no-console
    console.error("usage: test/_stages.ts unit|integration");
    Deno.exit(2);
  }
  const env: Record<string, string> = {};
  // More files at once than cores: many integration files mostly wait on servers and workerd.
  if (stage === "integration" && Deno.env.get("DENO_JOBS") === undefined) env.DENO_JOBS = "4";
  const { code } = await new Deno.Command(Deno.execPath(), { args: stageArgs(stage), env })
    .spawn().status;
  Deno.exit(code);
}
