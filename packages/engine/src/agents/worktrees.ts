import { existsSync } from "node:fs";
import { mkdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import {
  type AgentWorktree,
  applyAgentCommit,
  commitAgentWorktree,
  createAgentWorktree,
  findGitRepository,
  HostError,
  removeAgentWorktree,
  WORKTREE_NAME,
  type WorktreeFileChange,
} from "@z-engine/host";
import { lazily } from "@z-engine/protocol";
import { errorOutput, textOutput, type ToolOutput } from "@z-engine/tools";
import { z } from "zod";
import { applyFailureText } from "./worktree-report.js";

/** A worktree agent's committed changes, waiting to be applied or discarded. */
export interface WorktreeChanges {
  readonly agentId: string;
  readonly commit: string | null;
  readonly files: readonly WorktreeFileChange[];
  /** Why the worktree could not be committed (its `.git` file was changed, git failed). */
  readonly problem?: string;
}

interface Pending {
  readonly worktree: AgentWorktree;
  readonly changes: WorktreeChanges;
}

/**
 * What `<session's worktrees folder>/<agent>/worktree.json` holds: the one fact of a worktree
 * that cannot be derived again, the commit it started from. Everything else (the folder, the
 * engine's repository, the branch, the user's repository) is derived from the project and
 * the agent's id, never read from a file: a descriptor is not trusted to name a path or a
 * branch (issue 38, item 16).
 */
const Descriptor = lazily(() =>
  z.object({ v: z.literal(2), base: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/) }),
);

const messageOf = (error: unknown) =>
  error instanceof HostError ? error.message : String((error as Error)?.message ?? error);

/**
 * The session's worktree agents: creates their worktrees, commits what they leave, and
 * applies (three-way merge) or discards it. Their git repositories and descriptors live in
 * the session's folder of the engine's data (`folder`), never in the project; the
 * worktrees themselves in `<project>/.z-engine/worktrees/<agent>`. A later process (the
 * session reopened) can {@link WorktreeAgents.restore} one. Removing a worktree removes its
 * folder and the engine's repository, nothing of the user's repository. Never rejects: git
 * failures become messages.
 */
export class WorktreeAgents {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly projectRoot: string,
    /** The session's own folder for its worktree agents' repositories and descriptors. */
    private readonly folder: string,
    private readonly env?: Readonly<Record<string, string | undefined>>,
  ) {}

  private get options() {
    return this.env ? { env: this.env } : {};
  }

  private agentFolder = (agentId: string) => join(this.folder, agentId);
  private descriptorOf = (agentId: string) => join(this.agentFolder(agentId), "worktree.json");

  async create(
    agentId: string,
  ): Promise<{ ok: true; worktree: AgentWorktree } | { ok: false; error: string }> {
    try {
      await mkdir(this.agentFolder(agentId), { recursive: true, mode: 0o700 });
      const gitDir = join(this.agentFolder(agentId), "git");
      const worktree = await createAgentWorktree(this.projectRoot, agentId, gitDir, this.options);
      const descriptor: z.infer<typeof Descriptor> = { v: 2, base: worktree.base };
      await writeFile(this.descriptorOf(agentId), `${JSON.stringify(descriptor)}\n`, {
        mode: 0o600,
      });
      return { ok: true, worktree };
    } catch (error) {
      return { ok: false, error: `Cannot give the agent a worktree: ${messageOf(error)}` };
    }
  }

  /** Commits the agent's work and keeps it pending; a failure is the changes' `problem`. */
  async commit(agentId: string, worktree: AgentWorktree): Promise<WorktreeChanges> {
    const changes: WorktreeChanges = await commitAgentWorktree(worktree, this.options).then(
      (summary) => ({ agentId, ...summary }),
      (error) => ({ agentId, commit: null, files: [], problem: messageOf(error) }),
    );
    this.pending.set(agentId, { worktree, changes });
    return changes;
  }

  /**
   * The worktree of `agentId` as an earlier process of this session left it (its descriptor
   * in the session's folder, and the worktree folder still there), derived again from the
   * project and the id; undefined otherwise. Does not commit or change anything. Never rejects.
   */
  async stored(agentId: string): Promise<AgentWorktree | undefined> {
    if (!WORKTREE_NAME.test(agentId)) return undefined;
    try {
      const parsed = Descriptor.safeParse(
        JSON.parse(await readFile(this.descriptorOf(agentId), "utf8")),
      );
      if (!parsed.success) return undefined;
      const project = await realpath(this.projectRoot);
      const repo = findGitRepository(project, this.env ?? process.env);
      const path = join(project, ".z-engine", "worktrees", agentId);
      const gitDir = join(this.agentFolder(agentId), "git");
      if (!repo || !existsSync(path) || !existsSync(gitDir)) return undefined;
      const prefix = relative(repo.workTree, project);
      return {
        name: agentId,
        repoRoot: repo.workTree,
        path,
        root: prefix === "" ? path : join(path, prefix),
        gitDir,
        branch: `z-engine/agents/${agentId}`,
        base: parsed.data.base,
      };
    } catch {
      return undefined;
    }
  }

  /**
   * Brings back the pending changes of a worktree agent of an earlier process: commits
   * whatever its worktree holds (a run cut short leaves files uncommitted) and summarises
   * it. Resolves true when the agent's changes now wait here. Never rejects.
   */
  async restore(agentId: string): Promise<boolean> {
    if (this.pending.has(agentId)) return true;
    const worktree = await this.stored(agentId);
    if (!worktree) return false;
    await this.commit(agentId, worktree);
    return true;
  }

  /** The worktree and the committed changes waiting for `agentId`, or undefined (for the user's review). */
  review(agentId: string): { worktree: AgentWorktree; changes: WorktreeChanges } | undefined {
    const entry = this.pending.get(agentId);
    return entry ? { worktree: entry.worktree, changes: entry.changes } : undefined;
  }

  /**
   * The real absolute paths the pending changes would write (a link followed to where it
   * leads, so the gate sees that), or `null` when none wait.
   */
  async pendingPaths(agentId: string): Promise<readonly string[] | null> {
    const entry = this.pending.get(agentId);
    if (!entry?.changes.commit) return null;
    return Promise.all(entry.changes.files.map((f) => realTarget(entry.worktree.repoRoot, f.path)));
  }

  /** Applies or discards; the worktree is removed unless a conflict keeps it for another try. */
  async applyOrDiscard(
    agentId: string,
    apply: boolean,
  ): Promise<{ ok: boolean; written: readonly string[]; output: ToolOutput }> {
    const entry = this.pending.get(agentId);
    if (!entry)
      return {
        ok: false,
        written: [],
        output: errorOutput(`No worktree agent ${agentId} has changes waiting.`),
      };
    const { worktree, changes } = entry;
    if (!apply || changes.commit === null) {
      await this.remove(agentId, worktree);
      const what = changes.commit === null ? "It had no changes" : "Its changes were discarded";
      return {
        ok: true,
        written: [],
        output: textOutput(`${what}; the worktree of agent ${agentId} is removed.`),
      };
    }
    try {
      const result = await applyAgentCommit(worktree, changes.commit, this.options);
      if (!result.applied)
        return { ok: false, written: [], output: errorOutput(applyFailureText(result)) };
      await this.remove(agentId, worktree);
      const paths = [...result.written, ...result.deleted];
      const list = changes.files.map((f) => `- ${f.path} (${f.status})`).join("\n");
      return {
        ok: true,
        written: paths,
        output: textOutput(`Applied the changes of agent ${agentId}:\n${list}`, {
          writtenPaths: paths,
        }),
      };
    } catch (error) {
      return {
        ok: false,
        written: [],
        output: errorOutput(`Applying failed: ${messageOf(error)}`),
      };
    }
  }

  private async remove(agentId: string, worktree: AgentWorktree): Promise<void> {
    this.pending.delete(agentId);
    await removeAgentWorktree(worktree).catch(() => {});
    await rm(this.agentFolder(agentId), { recursive: true, force: true }).catch(() => {});
  }
}

/** Where writing `relative` under `top` would land: links on the way, and the file's own, followed. */
async function realTarget(top: string, relativePath: string): Promise<string> {
  const path = join(top, relativePath);
  const whole = await realpath(path).catch(() => null);
  if (whole !== null) return whole;
  // A new file: its deepest existing folder, resolved, and the rest as named.
  for (let dir = dirname(path); dir.startsWith(top); dir = dirname(dir)) {
    const real = await realpath(dir).catch(() => null);
    if (real !== null) return join(real, relative(dir, path));
  }
  return path;
}
