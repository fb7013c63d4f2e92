/**
 * Where a host finds the project it starts in: the folders from the start up to the root, and
 * the project's root (the git repository's, with a worktree's the main repository's, as Claude
 * Code 2.1 keys its local scope and Codex 0.169 finds `.codex/`), else the start itself; and
 * whether Codex trusts a project (it reads a project's `.codex/config.toml` only then), and
 * which of a project's `.mcp.json` servers Claude Code runs (the user approved them).
 *
 * @module
 */

import { dirname, isAbsolute, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { own } from "./data.ts";
import { jsonData } from "./json_doc.ts";

/**
 * The folders from one up to the file system's root.
 *
 * @param start The first folder.
 * @returns The folders, `start` first.
 */
export function upwards(start: string): string[] {
  const dirs: string[] = [];
  for (let dir = resolve(start);; dir = dirname(dir)) {
    dirs.push(dir);
    if (dirname(dir) === dir) return dirs;
  }
}

/**
 * The root of the project a folder is in: the nearest folder up with `.git` (for a worktree, the
 * main repository's folder), else the folder itself.
 *
 * @param cwd The folder.
 * @returns The root.
 *
 * @example Usage
 * ```ts
 * import { projectRoot } from "./project_dirs.ts";
 * import { equal } from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/.git`);
 * await Deno.mkdir(`${dir}/src/deep`, { recursive: true });
 * equal(projectRoot(`${dir}/src/deep`), dir);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function projectRoot(cwd: string): string {
  for (const dir of upwards(cwd)) {
    const git = join(dir, ".git");
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(git);
    } catch {
      continue;
    }
    if (info.isDirectory) return dir;
    // A worktree's (or a submodule's) `.git` file names its git folder; a worktree's has a
    // `commondir`, the main repository's git folder.
    try {
      const target = /^gitdir:\s*(.+?)\s*$/m.exec(Deno.readTextFileSync(git))?.[1];
      if (target === undefined) return dir;
      const gitDir = isAbsolute(target) ? target : resolve(dir, target);
      const common = Deno.readTextFileSync(join(gitDir, "commondir")).trim();
      return dirname(isAbsolute(common) ? common : resolve(gitDir, common));
    } catch {
      return dir;
    }
  }
  return resolve(cwd);
}

/**
 * Whether Codex's user file marks a project trusted (`[projects."<root>"] trust_level =
 * "trusted"`).
 *
 * @param userFile Codex's `config.toml`.
 * @param root The project's root.
 * @returns Whether it does.
 */
export function codexTrusts(userFile: string, root: string): boolean {
  try {
    const info = Deno.statSync(userFile);
    if (!info.isFile || info.size > 4 * 1024 * 1024) return false;
    const data = parseToml(Deno.readTextFileSync(userFile));
    return own(own(own(data, "projects"), root), "trust_level") === "trusted";
  } catch {
    return false;
  }
}

/** Which of a project's `.mcp.json` servers the user let Claude Code run. */
export interface Approvals {
  /** Whether Claude Code runs it (approved, one by one or all of the project's). */
  approved(name: string): boolean;
}

/**
 * The approvals Claude Code 2.1 keeps for a project's `.mcp.json` servers: in the project's
 * `.claude/settings.local.json` and `.claude/settings.json`, the user's `settings.json`, and the
 * project's entry in its own file (`enabledMcpjsonServers`, `enableAllProjectMcpServers`; a name
 * in `disabledMcpjsonServers` is rejected).
 *
 * @param claudeFile Claude Code's own file (`~/.claude.json`).
 * @param claudeDir Its folder of settings (`$CLAUDE_CONFIG_DIR`, else `~/.claude`).
 * @param cwd The folder Claude Code starts in.
 * @returns The approvals.
 */
export function claudeApprovals(claudeFile: string, claudeDir: string, cwd: string): Approvals {
  const root = projectRoot(cwd);
  const sources: unknown[] = [
    ...[...new Set([resolve(cwd), root])].flatMap((dir) => [
      readJson(join(dir, ".claude", "settings.local.json")),
      readJson(join(dir, ".claude", "settings.json")),
    ]),
    claudeDir === "" ? undefined : readJson(join(claudeDir, "settings.json")),
    own(own(readJson(claudeFile), "projects"), root),
  ];
  const listed = (key: string, name: string) =>
    sources.some((s) => {
      const list = own(s, key);
      return Array.isArray(list) && list.includes(name);
    });
  const all = sources.some((s) => own(s, "enableAllProjectMcpServers") === true);
  return {
    approved: (name) =>
      !listed("disabledMcpjsonServers", name) && (all || listed("enabledMcpjsonServers", name)),
  };
}

function readJson(path: string): unknown {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile || info.size > 32 * 1024 * 1024) return undefined;
    const read = jsonData(Deno.readTextFileSync(path));
    return read.ok ? read.value : undefined;
  } catch {
    return undefined;
  }
}
