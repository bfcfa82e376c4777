import { join } from "node:path";
import type { PermissionMode, TurnId } from "@z-engine/protocol";
import type { Session as StoreSession } from "@z-engine/store";
import type { Tool } from "@z-engine/tools";
import type { DefinitionDoors } from "../definitions/discover.js";
import type { SessionJobs } from "../ports/jobs.js";
import type { HostAgent } from "../settings/session-config.js";
import type { SessionCore } from "../core/session-core.js";
import type { Journal } from "../journal/journal.js";
import { discoverAgents } from "./discover.js";
import { agentToolFor } from "./offered.js";
import { runSubagent } from "./run-subagent.js";
import { SessionAgents } from "./session-agents.js";

/** What a session gives its agents. */
export interface SessionAgentsWiring {
  readonly projectRoot: string;
  /** The host's agents in code, ahead of the files'. */
  readonly hostAgents?: Readonly<Record<string, HostAgent>>;
  readonly userConfigDir: string;
  readonly homeDir: string;
  /** The doors agent files are read through (the project's, the user's). */
  readonly files: DefinitionDoors;
  readonly journal: Journal;
  readonly log: StoreSession;
  readonly jobs: SessionJobs;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The engine's data folder: worktree agents' repositories go in `worktrees/<session id>/`. */
  readonly dataDir: string;
  /** The engine's lifetime: background agents hang under it (and stop with the session's jobs). */
  readonly lifetime: AbortSignal;
  /** The session, once built, and the id of its running turn. */
  readonly session: () => (SessionCore & { readonly currentTurn?: { turnId: TurnId } }) | undefined;
}

/**
 * Discovers the session's agent types and builds its AgentPort and Agent tool. Problems
 * with agent files come back as notice texts. Never rejects.
 */
export async function sessionAgents(w: SessionAgentsWiring): Promise<{
  port: SessionAgents;
  tool: Tool;
  notices: string[];
}> {
  const catalog = await discoverAgents(w);
  const notices = catalog.problems.map((p) => `agents: ${p.path} was skipped: ${p.error}`);
  const port = new SessionAgents({
    projectRoot: w.projectRoot,
    journal: w.journal,
    jobs: w.jobs,
    catalog: () => catalog,
    sessionMode: (): PermissionMode => w.session()?.mode ?? "ask",
    run: (run) => {
      const core = w.session();
      if (!core) throw new Error("the session is not open yet");
      const turnId = core.currentTurn?.turnId ?? ("turn_none" as TurnId);
      return runSubagent(core, run, turnId, w.env);
    },
    sessionSignal: w.lifetime,
    env: w.env,
    worktreesFolder: join(w.dataDir, "worktrees", w.log.id),
    limits: () => {
      const agents = w.session()?.config.settings.agents;
      return {
        maxConcurrent: agents?.max_concurrent ?? 10,
        maxDepth: agents?.max_depth ?? 2,
      };
    },
    storedAgentType: async (agentId) => {
      const { replay } = await w.log.readAgent(agentId);
      return replay.state.runningAgents[0]?.agentType ?? null;
    },
  });
  return { port, tool: agentToolFor(catalog), notices };
}
