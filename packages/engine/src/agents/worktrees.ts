import {
  type AgentWorktree,
  applyAgentCommit,
  commitAgentWorktree,
  createAgentWorktree,
  HostError,
  type MergeConflict,
  removeAgentWorktree,
  type WorktreeFileChange,
} from "@z-engine/host";
import { errorOutput, textOutput, type ToolOutput } from "@z-engine/tools";
import { existsSync } from "node:fs";
import { readFile, realpath, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { lazily } from "@z-engine/protocol";
import { z } from "zod";

/** A worktree agent's committed changes, waiting to be applied or discarded. */
export interface WorktreeChanges {
  readonly agentId: string;
  readonly commit: string | null;
  readonly files: readonly WorktreeFileChange[];
}

interface Pending {
  readonly worktree: AgentWorktree;
  readonly changes: WorktreeChanges;
}

/**
 * What `.z-engine/worktrees/<agent>.json` holds (git ignores it, as the whole folder): the
 * worktree's facts, so its changes can still be applied after the session is reopened.
 */
const Descriptor = lazily(() =>
  z.object({
    v: z.literal(2),
    worktree: z.object({
      name: z.string(),
      repoRoot: z.string(),
      path: z.string(),
      root: z.string(),
      branch: z.string(),
      base: z.string(),
    }),
  }),
);

/** Agent ids as the store and the worktree names accept them. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const descriptorOf = (worktree: AgentWorktree) => `${worktree.path}.json`;

const MAX_SIDE_CHARS = 2_000;
const clip = (text: string | null) =>
  text === null
    ? "(absent or binary)"
    : text.length > MAX_SIDE_CHARS
      ? `${text.slice(0, MAX_SIDE_CHARS)}\n[...]`
      : text;

function conflictText(c: MergeConflict): string {
  return [
    `## ${c.path}: ${c.kind}`,
    `### project (ours)\n${clip(c.ours)}`,
    `### agent (theirs)\n${clip(c.theirs)}`,
    `### base\n${clip(c.base)}`,
  ].join("\n");
}

/**
 * The session's worktree agents: creates their worktrees, commits what they leave, and
 * applies (three-way merge) or discards it. Each worktree is described in
 * `.z-engine/worktrees/<agent>.json` from its creation until it is removed, so a later
 * process (the session reopened) can {@link WorktreeAgents.restore} it. Never rejects: git
 * failures become messages.
 */
export class WorktreeAgents {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly projectRoot: string,
    private readonly env?: Readonly<Record<string, string | undefined>>,
  ) {}

  private get options() {
    return this.env ? { env: this.env } : {};
  }

  async create(
    agentId: string,
  ): Promise<{ ok: true; worktree: AgentWorktree } | { ok: false; error: string }> {
    try {
      const worktree = await createAgentWorktree(this.projectRoot, agentId, this.options);
      const descriptor: z.infer<typeof Descriptor> = { v: 2, worktree };
      await writeFile(descriptorOf(worktree), `${JSON.stringify(descriptor)}\n`);
      return { ok: true, worktree };
    } catch (error) {
      const message = error instanceof HostError ? error.message : String(error);
      return { ok: false, error: `Cannot give the agent a worktree: ${message}` };
    }
  }

  /** Commits the agent's work and keeps it pending; a git failure reads as no changes. */
  async commit(agentId: string, worktree: AgentWorktree): Promise<WorktreeChanges> {
    const summary = await commitAgentWorktree(worktree, this.options).catch(() => ({
      commit: null,
      files: [],
    }));
    const changes = { agentId, ...summary };
    this.pending.set(agentId, { worktree, changes });
    return changes;
  }

  /**
   * The worktree of `agentId` as an earlier process left it (its descriptor, and the folder
   * still there), or undefined. Does not commit or change anything. Never rejects.
   */
  async stored(agentId: string): Promise<AgentWorktree | undefined> {
    if (!SAFE_ID.test(agentId)) return undefined;
    try {
      const folder = join(await realpath(this.projectRoot), ".z-engine", "worktrees");
      const parsed = Descriptor.safeParse(
        JSON.parse(await readFile(join(folder, `${agentId}.json`), "utf8")),
      );
      if (!parsed.success) return undefined;
      const worktree = parsed.data.worktree;
      const path = join(folder, agentId);
      // A descriptor names its own folder only, and that folder must still be there.
      if (worktree.name !== agentId || worktree.path !== path || !existsSync(path))
        return undefined;
      return worktree;
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

  /** The absolute project paths the pending changes touch, or `null` when none wait. */
  pendingPaths(agentId: string): readonly string[] | null {
    const entry = this.pending.get(agentId);
    if (!entry?.changes.commit) return null;
    return entry.changes.files.map((f) => join(entry.worktree.repoRoot, f.path));
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
      if (!result.applied) {
        const text = `Nothing was applied: ${result.conflicts.length} file(s) conflict with the project's current files. The project is unchanged and the agent's worktree is kept.\n\n${result.conflicts.map(conflictText).join("\n\n")}`;
        return { ok: false, written: [], output: errorOutput(text) };
      }
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
        output: errorOutput(`Applying failed: ${(error as Error).message}`),
      };
    }
  }

  private async remove(agentId: string, worktree: AgentWorktree): Promise<void> {
    this.pending.delete(agentId);
    await removeAgentWorktree(worktree, this.options).catch(() => {});
    await rm(descriptorOf(worktree), { force: true }).catch(() => {});
  }
}
