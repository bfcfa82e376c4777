import type { SessionHandle } from "../session/handle.js";
import { SessionAgents } from "../agents/session-agents.js";
import { type ChangedFile, currentSha, currentSide } from "./changes.js";
import { diffTexts } from "./line-diff.js";
import { isSafeRelativePath, readProjectFile } from "./project-file.js";
import { type QueryTarget, targetOf } from "./registry.js";

/** A worktree agent's committed changes waiting for Apply or Discard. */
export interface PendingAgentChanges {
  readonly agentId: string;
  readonly agentType: string;
  readonly description: string;
  /** Each file as Apply would change the project's current file (`currentSha` is the project's). */
  readonly files: readonly ChangedFile[];
}

/** What Apply or Discard did: the merge report in markdown (each conflict with its three sides). */
export interface AgentChangesOutcome {
  /** False when nothing was applied (a conflict, a running turn, no such changes). */
  readonly ok: boolean;
  readonly report: string;
  /** Project paths written (or deleted) by an Apply. */
  readonly written: readonly string[];
}

function agentsPort(target: QueryTarget): SessionAgents | undefined {
  const port = target.session.ports.agents;
  return port instanceof SessionAgents ? port : undefined;
}

async function agentsOfLog(target: QueryTarget) {
  const records = await target.session.log.transcript();
  return records.flatMap((r) =>
    r.kind === "agentStarted"
      ? [{ agentId: r.agentId as string, agentType: r.agentType, description: r.description }]
      : [],
  );
}

/**
 * The session's worktree agents whose changes wait to be applied or discarded (also those a
 * previous run of the session left), each file diffed from the project's current file to the
 * agent's version, read from its worktree without following links. Never rejects for a file
 * that cannot be read (it shows as absent).
 */
export async function pendingAgentChanges(handle: SessionHandle): Promise<PendingAgentChanges[]> {
  const target = targetOf(handle);
  const port = agentsPort(target);
  if (!port) return [];
  const out: PendingAgentChanges[] = [];
  const seen = new Set<string>();
  for (const agent of await agentsOfLog(target)) {
    if (seen.has(agent.agentId)) continue;
    seen.add(agent.agentId);
    const review = await port.pendingReview(agent.agentId);
    if (!review?.changes.commit) continue;
    const files: ChangedFile[] = [];
    for (const change of review.changes.files) {
      if (!isSafeRelativePath(change.path)) continue;
      const [project, theirs] = await Promise.all([
        readProjectFile(review.worktree.repoRoot, change.path),
        readProjectFile(review.worktree.path, change.path),
      ]);
      const ours = currentSide(project);
      const agentSide =
        change.status === "deleted" ? { kind: "absent" as const } : currentSide(theirs);
      const base = { path: change.path, status: change.status, currentSha: currentSha(project) };
      if (ours.kind === "opaque" || agentSide.kind === "opaque") {
        const why =
          ours.kind === "opaque"
            ? ours.why
            : agentSide.kind === "opaque"
              ? agentSide.why
              : "binary";
        files.push({ ...base, added: 0, removed: 0, hunks: [], noDiff: why });
      } else {
        const diff = diffTexts(
          ours.kind === "text" ? ours.text : "",
          agentSide.kind === "text" ? agentSide.text : "",
        );
        files.push({ ...base, ...diff });
      }
    }
    out.push({ ...agent, files });
  }
  return out;
}

/**
 * Applies (a three-way merge into the project) or discards a worktree agent's pending
 * changes, as the user decided, while the session is idle. On a conflict nothing is
 * written, the worktree is kept and the report lists each file with the project's, the
 * agent's and the base version. The outcome is also recorded as a notice. Rejects only when
 * the log refuses the notice.
 */
export async function resolveAgentChanges(
  handle: SessionHandle,
  agentId: string,
  apply: boolean,
): Promise<AgentChangesOutcome> {
  const target = targetOf(handle);
  const { session } = target;
  if (session.busy)
    return { ok: false, report: "A turn is running: decide once it ends.", written: [] };
  const port = agentsPort(target);
  if (!port) return { ok: false, report: "This session has no agents.", written: [] };
  const output = await port.applyChanges(agentId, apply);
  const report = output.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
  const ok = !output.isError;
  const code = !ok
    ? "agents.applyFailed"
    : apply
      ? "agents.changesApplied"
      : "agents.changesDiscarded";
  const firstLine = report.split("\n")[0] ?? "";
  await session.journal.notice(ok ? "info" : "warning", code, `Agent ${agentId}: ${firstLine}`);
  return { ok, report, written: output.writtenPaths ?? [] };
}
