import { relative, resolve } from "node:path";
import { fingerprint, type Shell } from "@z-engine/host";
import type { SystemSection } from "@z-engine/protocol";
import type { JobPort, ToolPorts } from "@z-engine/tools";
import { SessionChecks } from "../ports/checks.js";
import { SessionJobs } from "../ports/jobs.js";
import type { Confinement } from "../core/agent-context.js";
import type { SessionCore } from "../core/session-core.js";
import { environmentText } from "../environment/environment.js";
import type { Journal } from "../journal/journal.js";

/** A worktree agent's folders: its worktree's top and its root in it (the project's subfolder). */
export interface WorktreeFolders {
  readonly path: string;
  readonly root: string;
}

type SystemCore = Pick<SessionCore, "projectRoot" | "config" | "additionalDirectories" | "clock">;

/**
 * The system sections of a worktree agent: the environment section says `Working
 * directory: <its root>` and names its worktree as the repository root, and the instruction
 * files are named by their copies in the worktree. The other sections are the session's.
 */
export function worktreeSystem(
  core: SystemCore,
  system: readonly SystemSection[],
  worktree: WorktreeFolders,
  model: string,
): SystemSection[] {
  const program = core.config.settings.shell.program;
  const environment = environmentText({
    projectRoot: worktree.root,
    repoRoot: worktree.path,
    model,
    ...(program ? { shell: program } : {}),
    additionalDirs: core.additionalDirectories,
    now: core.clock(),
  });
  // The project's repository top: the project, less the subfolder the root is in.
  const repoRoot = resolve(core.projectRoot, relative(worktree.root, worktree.path));
  return system.map((section) => {
    if (section.id === "environment") return { ...section, text: environment };
    if (section.id !== "instructions") return section;
    const text = section.text.split(`source="${repoRoot}/`).join(`source="${worktree.path}/`);
    return { ...section, text };
  });
}

/** The session's jobs, starting background shells on `shell`. */
function jobsOn(jobs: SessionJobs, shell: Shell): JobPort {
  return {
    spawnShell: (request, description) => jobs.spawnShell(request, description, shell),
    readOutput: (id) => jobs.readOutput(id),
    kill: (id) => jobs.kill(id),
    list: () => jobs.list(),
  };
}

type ConfineCore = Pick<
  SessionCore,
  "confine" | "shell" | "sandbox" | "ports" | "checks" | "log" | "clock"
>;

/**
 * The confinement of a worktree agent rooted at `root`: the session's `confine` (its shell
 * settings, its sandbox with `root` writable); background shells on that shell; checks
 * (Verify) run in `root`, recorded in the agent's own transcript (`journal`) and never as
 * the session's evidence, since they prove the worktree, not the project. A session without
 * `confine` (a host's own shell) lends its shell and sandbox as they are.
 */
export function confineToWorktree(
  core: ConfineCore,
  root: string,
  journal: Journal,
  env: Readonly<Record<string, string | undefined>>,
): Confinement {
  const { shell, sandbox } = core.confine?.(root) ?? { shell: core.shell, sandbox: core.sandbox };
  const { jobs, checks, ...others } = core.ports;
  const ports: ToolPorts = {
    ...others,
    ...(jobs instanceof SessionJobs ? { jobs: jobsOn(jobs, shell) } : {}),
    ...(checks ? { checks: worktreeChecks(core, root, journal, shell, env) } : {}),
  };
  return { shell, sandbox, ports };
}

/** Checks run in the worktree, recorded in the agent's transcript only. */
function worktreeChecks(
  core: ConfineCore,
  root: string,
  journal: Journal,
  shell: Shell,
  env: Readonly<Record<string, string | undefined>>,
): SessionChecks {
  return new SessionChecks({
    projectRoot: root,
    journal,
    shell,
    artifacts: core.log.artifacts,
    clock: core.clock,
    fingerprint: () => fingerprint(root, { env }),
    checks: () => core.checks(),
    changedPaths: () => [],
    records: [],
    badge: async () => null,
  });
}
