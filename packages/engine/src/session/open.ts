import { join } from "node:path";
import { type LinkedController, linkedController } from "../util/abort.js";
import type { LoadedSettings } from "@z-engine/config";
import {
  createTokenEstimator,
  type DiscoverOptions,
  discoverInstructions,
  InstructionTracker,
  instructionScope,
  ReminderQueue,
} from "@z-engine/context";
import { createCheckpointStore, createShellSession, fingerprint, type Shell } from "@z-engine/host";
import { basePrompt } from "@z-engine/prompts";
import { emptyUsage, type ModelClient, type SessionId } from "@z-engine/protocol";
import type { Session as StoreSession, OpenedSession } from "@z-engine/store";
import { createFileTracker, createPathLocks, type ToolPorts } from "@z-engine/tools";
import { Approvals } from "../core/approvals.js";
import { HookRunner } from "../hooks/runner.js";
import { SessionLsp } from "../lsp/hub.js";
import { SessionChecks } from "../ports/checks.js";
import { SessionInteraction } from "../ports/interaction.js";
import { SessionJobs } from "../ports/jobs.js";
import { sessionAgents } from "../agents/wire.js";
import { FastModelSide } from "../ports/side-model.js";
import { McpHub } from "../mcp/hub.js";
import { hubPort } from "../mcp/port.js";
import { replacedMcpServers, replacedServersText } from "../mcp/replaced.js";
import { mcpTokenStore, sessionMcpHooks } from "../mcp/session-hooks.js";
import {
  type SessionConfig,
  type SessionOverrides,
  sessionConfig,
} from "../settings/session-config.js";
import { SessionRepoMap } from "../repo-map/session-map.js";
import { repoMapCacheFile, repoMapSnapshotFile } from "../repo-map/cache-file.js";
import { turnBadge } from "../verification/badge.js";
import { SessionDefinitions } from "../definitions/definitions.js";
import { skillPort } from "../definitions/skill-port.js";
import { grantSkillRules } from "../run/turn-overrides.js";
import { environmentText, gitToplevel, realFolder } from "../environment/environment.js";
import { BackgroundTasks, notifier } from "./background.js";
import { childLaunch, mcpContext } from "../launch/child-launch.js";
import { sessionChildEnv } from "../launch/program-env.js";
import { TurnCheckpoints } from "./checkpoint.js";
import { instructionDoors } from "./instruction-gate.js";
import { LiveSettings } from "./live-settings.js";
import {
  projectDoor,
  readableDoor,
  type SessionDoors,
  sessionDoorView,
  userDoor,
} from "../core/project-doors.js";
import { noticeAttention } from "../decisions/notice-attention.js";
import { Journal } from "../journal/journal.js";
import type { OpenContext } from "./open-context.js";
import { repairCrash } from "./repair.js";
import { SessionState } from "../core/state.js";
import { mcpVariablesReport, type TrustTarget, trustWorkspace } from "./trust.js";
import {
  clientCache,
  loadProjectSettings,
  offeredTools,
  projectChecks,
  shellFor,
} from "./services.js";
import { EngineSession, type SessionParts } from "./session.js";
import { runHook } from "../hooks/run-hook.js";

/** The base system prompt: zeng's, or the host's in its place, with the host's addition. */
function systemBase(overrides: SessionOverrides): string {
  const base = overrides.systemPrompt ?? basePrompt();
  const more = overrides.appendSystemPrompt;
  return more ? `${base}\n\n${more}` : base;
}

interface Prepared {
  readonly projectRoot: string;
  readonly loaded: LoadedSettings;
  readonly config: SessionConfig;
  readonly overrides: SessionOverrides;
  /** The session's clients, made from `configNow()` (the settings once the session is built). */
  readonly clientFor: (role: "main" | "fast", model: string) => ModelClient;
  configNow: () => SessionConfig;
}

function portsFor(
  ctx: OpenContext,
  projectRoot: string,
  log: StoreSession,
  journal: Journal,
  shell: Shell,
  reminders: ReminderQueue,
  records: SessionParts["checkRecords"],
  sessionState: SessionState,
  live: {
    readonly notify: (message: string) => void;
    readonly fingerprint: () => Promise<string>;
  },
) {
  const interaction = new SessionInteraction({
    journal,
    headless: ctx.headless,
    setTodos: (todos) => sessionState.setTodos(todos),
    setMode: (mode) => sessionState.setMode(mode),
    onWaiting: live.notify,
    onError: (error) =>
      void journal.notice("error", "engine.recordFailed", (error as Error).message),
  });
  const jobs = new SessionJobs(shell, journal, reminders, ctx.clock);
  const checks = new SessionChecks({
    projectRoot,
    journal,
    shell,
    artifacts: log.artifacts,
    clock: ctx.clock,
    fingerprint: live.fingerprint,
    checks: () => sessionState.settings.checks,
    changedPaths: () => [...(sessionState.currentTurn?.writtenPaths ?? [])],
    records,
    badge: async () => {
      const turn = sessionState.currentTurn;
      const view = {
        fingerprint: live.fingerprint,
        config: sessionState.settings.config,
        checkRecords: records,
      };
      return turn ? turnBadge(view, turn) : null;
    },
  });
  return { interaction, jobs, checks };
}

/**
 * The session's project-files doors and its instruction discovery: every project-controlled
 * file it reads goes through one of the doors, whose rules are read from the session's
 * state at each question (trust and settings reloads apply at once).
 */
function sessionFiles(
  ctx: OpenContext,
  projectRoot: string,
  repoRoot: string | undefined,
  state: SessionState,
): { doors: SessionDoors; discovery: DiscoverOptions } {
  const place = { projectRoot, homeDir: ctx.homeDir };
  const view = sessionDoorView(state);
  const top = repoRoot ?? projectRoot;
  const instructions = instructionDoors(place, view, { top, userConfigDir: ctx.paths.configDir });
  const doors: SessionDoors = {
    instructions: instructions.files,
    userInstructions: instructions.userFiles,
    project: projectDoor(place, view),
    user: userDoor(place, view),
    readable: readableDoor(place, view),
  };
  const discovery: DiscoverOptions = {
    userConfigDir: ctx.paths.configDir,
    ...(repoRoot ? { repoRoot } : {}),
    projectRoot,
    homeDir: ctx.homeDir,
    fs: doors.instructions,
    userFs: doors.userInstructions,
    readAllowed: instructions.readAllowed,
  };
  return { doors, discovery };
}

/** Builds a session over an open log: settings, services, ports and tools. */
async function buildSession(
  ctx: OpenContext,
  log: StoreSession,
  prep: Prepared,
  opened: OpenedSession | undefined,
  notices: string[],
): Promise<EngineSession> {
  // The session's lifetime: its checkpoint store's and fingerprints' git calls stop with it.
  const lifetime = linkedController(ctx.parent);
  try {
    return await assemble(ctx, log, prep, opened, notices, lifetime);
  } catch (error) {
    lifetime.release();
    throw error;
  }
}

async function assemble(
  ctx: OpenContext,
  log: StoreSession,
  prep: Prepared,
  opened: OpenedSession | undefined,
  notices: string[],
  lifetime: LinkedController,
): Promise<EngineSession> {
  const { projectRoot, config } = prep;
  const state = opened?.replay.state;
  const { clientFor } = prep;
  let watched: EngineSession | undefined;
  const sink = noticeAttention(ctx.sink, () => watched);
  const journal = new Journal(log.id as SessionId, log, sink, ctx.clock, ctx.redactor);
  // The checks' discovery walks the project: it runs while the shell and git are looked up.
  const checksFound = projectChecks({ projectRoot, homeDir: ctx.homeDir }, config);
  const repoRoot = await gitToplevel(projectRoot);
  const dirs = config.settings.permissions.additional_directories;
  const { shell, sandbox, confine } = await shellFor(
    ctx,
    config,
    projectRoot,
    dirs,
    notices,
    (message) => void journal.notice("warning", "sandbox.gitCreated", message).catch(() => {}),
    () => prep.configNow().settings,
  );
  const sessionState = new SessionState(journal, {
    settings: {
      config,
      trusted: prep.loaded.trusted,
      additionalDirectories: dirs,
      hooks: new HookRunner(config.hooks, {
        sessionId: log.id,
        transcriptPath: log.transcriptPath ?? "",
        cwd: projectRoot,
        ...childLaunch(ctx, projectRoot, prep.loaded.trusted, config.settings),
        ...(ctx.hookSpans ? { spans: ctx.hookSpans } : {}),
      }),
      checks: await checksFound,
    },
    mode: prep.overrides.mode ?? state?.mode ?? config.mode,
    model: prep.overrides.model ?? state?.model ?? config.model,
    effort: prep.overrides.effort ?? state?.effort ?? config.effort,
    todos: state?.todos ?? [],
    totalUsage: opened?.replay.totalUsage ?? emptyUsage(),
  });
  const background = new BackgroundTasks();
  const notify = notifier(() => sessionState.settings.hooks, journal, background);
  const fingerprintOf = () =>
    fingerprint(projectRoot, { env: ctx.childEnv, signal: lifetime.signal });
  prep.configNow = () => sessionState.settings.config;
  const { doors, discovery } = sessionFiles(ctx, projectRoot, repoRoot, sessionState);
  const instructionSet = await discoverInstructions(discovery);
  for (const p of instructionSet.problems) notices.push(`instructions: ${p}`);
  const model = state?.model ?? config.model;
  const { definitions, problems } = await SessionDefinitions.load(
    {
      base: systemBase(prep.overrides),
      environment: environmentText({
        projectRoot,
        ...(repoRoot ? { repoRoot } : {}),
        model,
        ...(config.settings.shell.program ? { shell: config.settings.shell.program } : {}),
        additionalDirs: dirs,
        now: ctx.clock(),
      }),
      discovery,
      roots: {
        projectRoot,
        userConfigDir: ctx.paths.configDir,
        homeDir: ctx.homeDir,
        files: { project: doors.project, user: doors.user },
      },
      outputStyle: config.settings.appearance.output_style,
    },
    instructionSet.systemText,
  );
  notices.push(...problems);
  const reminders = new ReminderQueue();
  const records = [...(state?.checks ?? [])];
  const { interaction, jobs, checks } = portsFor(
    ctx,
    projectRoot,
    log,
    journal,
    shell,
    reminders,
    records,
    sessionState,
    { notify, fingerprint: fingerprintOf },
  );
  const lsp = new SessionLsp({
    root: projectRoot,
    env: () => sessionChildEnv(ctx.childEnv, sessionState.settings.config.settings),
    files: doors.readable,
    trusted: () => sessionState.settings.trusted,
    settings: () => sessionState.settings.config.settings.lsp,
  });
  const mcp = new McpHub({
    journal,
    reminders,
    env: ctx.env,
    clock: ctx.clock,
    authStore: mcpTokenStore(ctx.paths.dataDir),
    waitForStarts: ctx.headless,
    hooks: sessionMcpHooks({
      headless: ctx.headless,
      interaction,
      journal,
      folders: () => [projectRoot, ...sessionState.settings.additionalDirectories],
      ...(ctx.mcpSampling ? { sample: ctx.mcpSampling } : {}),
    }),
  });
  // Added directories are roots: the servers hear when they change.
  sessionState.settingsReplaced.add(() => mcp.rootsChanged());
  // The agents' port reaches the session once it is built (its calls come only from turns).
  let built: EngineSession | undefined;
  const agents = await sessionAgents({
    projectRoot,
    ...(prep.overrides.agents ? { hostAgents: prep.overrides.agents } : {}),
    userConfigDir: ctx.paths.configDir,
    homeDir: ctx.homeDir,
    files: { project: doors.project, user: doors.user },
    journal,
    log,
    jobs,
    env: ctx.childEnv,
    dataDir: ctx.paths.dataDir,
    lifetime: ctx.parent,
    session: () => built,
  });
  notices.push(...agents.notices);
  const ports: ToolPorts = {
    ...{ interaction, jobs, checks, lsp, mcp: hubPort(mcp) },
    sideModel: new FastModelSide(() => built),
    agents: agents.port,
    ...(ctx.editor ? { editor: ctx.editor } : {}),
    ...(definitions.skills.length > 0
      ? {
          skills: skillPort(
            () => definitions.skills,
            { project: doors.project, user: doors.user },
            (skill) => built && grantSkillRules(built, skill),
          ),
        }
      : {}),
  };
  const parts: SessionParts = {
    id: log.id as SessionId,
    projectRoot,
    homeDir: ctx.homeDir,
    engineDirs: [ctx.paths.dataDir, ctx.paths.configDir],
    journal,
    log,
    clock: ctx.clock,
    headless: ctx.headless,
    lifetime,
    state: sessionState,
    turnCount: state?.turnCount ?? 0,
    titled: Boolean(state?.title),
    sandbox,
    ...(confine ? { confine } : {}),
    approvals: new Approvals(journal, ctx.headless, (requests) =>
      notify(`Z Engine needs your approval: ${requests.map((r) => r.title).join(", ")}`),
    ),
    reminders,
    instructions: new InstructionTracker({
      projectRoot,
      scopedRules: instructionSet.scopedRules,
      homeDir: ctx.homeDir,
      fs: doors.instructions,
      scope: instructionScope(discovery, "project"),
    }),
    doors,
    estimator: createTokenEstimator(),
    system: definitions.sections(),
    definitions,
    userConfigDir: ctx.paths.configDir,
    repoMap: ctx.repoMap
      ? new SessionRepoMap({
          projectRoot,
          cacheFile: repoMapCacheFile(ctx.paths.dataDir, projectRoot),
          mapFile: repoMapSnapshotFile(ctx.paths.dataDir, projectRoot),
          clock: ctx.clock,
          env: ctx.env,
          files: doors.project,
          tokens: () => sessionState.settings.config.settings.context.repo_map_tokens,
          messages: () => log.snapshot().workingSet.slice(),
          reminders,
          // A problem found after the session closed has no log to go to: it is dropped.
          onProblem: (message) =>
            void journal.notice("warning", "context.repoMap", message).catch(() => {}),
        })
      : undefined,
    tools: offeredTools([agents.tool, ...ctx.extraTools], ports, config.settings.web.enabled),
    mcp,
    ports,
    shell,
    shellSession: createShellSession(shell, { cwd: projectRoot }),
    files: createFileTracker(),
    locks: createPathLocks(),
    web: {
      ...(config.settings.web.search_url ? { searchUrl: config.settings.web.search_url } : {}),
      searchHeaders: config.settings.web.search_headers,
    },
    search: {},
    checkpoints: ctx.checkpoints
      ? createCheckpointStore({
          checkpointsDir: join(ctx.paths.dataDir, "checkpoints"),
          projectRoot,
          env: ctx.childEnv,
          signal: lifetime.signal,
        })
      : null,
    checkRecords: records,
    catalog: ctx.catalogFor(() => sessionState.settings.config.settings),
    ...(ctx.sidecars ? { sidecars: ctx.sidecars } : {}),
    clientFor,
    fingerprintOf,
  };
  const trustTarget: TrustTarget = {
    id: parts.id,
    projectRoot,
    logPath: log.transcriptPath ?? "",
    journal,
    state: sessionState,
    ...(parts.repoMap ? { repoMap: parts.repoMap } : {}),
    mcp,
  };
  const watches = ctx.settingsWatch;
  const live = watches
    ? new LiveSettings(
        ctx,
        { ...trustTarget, lsp, busy: () => built?.busy ?? true },
        prep.overrides,
        prep.loaded,
        watches,
      )
    : undefined;
  const session = new EngineSession(live ? { ...parts, liveSettings: live } : parts, {
    interaction,
    jobs,
    lsp,
    checkpoints: new TurnCheckpoints(),
    background,
    notify,
    trust: (trusted) => trustWorkspace(ctx, trustTarget, trusted, prep.overrides),
  });
  built = session;
  watched = session;
  // The main client now: a built-in client starts loading its SDK while the session opens.
  session.client("main", session.model);
  // The map's snapshot is read (its files through the door) while the session finishes opening;
  // the first prompt waits for it only when it is recorded.
  session.repoMap?.open();
  // MCP servers start in the background: no request waits for them, and the first one is
  // not slowed by their start-up (held until it went out, or the session sits idle).
  mcp.holdStarts();
  mcp.reconcile(config.settings.mcp.servers, mcpContext(ctx, projectRoot, prep.loaded));
  return session;
}

/**
 * Loads the settings and makes the main client at once: a built-in client's SDK import
 * then runs beside the rest of the open (the log's creation and fsync,
 * its files, the checks' walk) instead of on the first request's path (issue 18).
 */
async function prepare(
  ctx: OpenContext,
  projectRoot: string,
  overrides: SessionOverrides,
  storedModel?: string,
): Promise<Prepared> {
  const loaded = loadProjectSettings(ctx, projectRoot, overrides);
  const config = sessionConfig(loaded, overrides);
  const prep: Prepared = {
    projectRoot,
    loaded,
    config,
    overrides,
    clientFor: clientCache(ctx, () => prep.configNow()),
    configNow: () => config,
  };
  prep.clientFor("main", overrides.model ?? storedModel ?? config.model);
  await ctx.onSettings(loaded.settings);
  return prep;
}

/** Notices for what loading the settings found: problems, and the trust request. */
async function announce(
  session: EngineSession,
  loaded: LoadedSettings,
  notices: readonly string[],
): Promise<void> {
  for (const p of loaded.problems) {
    await session.journal.notice(
      "warning",
      "settings.problem",
      `${p.file}${p.line ? `:${p.line}` : ""}${p.key ? ` (${p.key})` : ""}: ${p.message}`,
    );
  }
  for (const e of session.config.ruleErrors)
    await session.journal.notice(
      "warning",
      "settings.rule",
      `${e.source}: "${e.text}": ${e.error}`,
    );
  for (const n of notices) await session.journal.notice("warning", "session.setup", n);
  const mode = session.config.settings.verification.mode;
  // The default (auto) is quiet in an untrusted folder: only a mode someone set is worth a notice.
  const chosen = loaded.layers.some((l) => l.values.verification?.mode !== undefined);
  if (!loaded.trusted && chosen && (mode === "auto" || mode === "strict"))
    await session.journal.notice(
      "warning",
      "verification.untrusted",
      `verification is "${mode}" but ${session.projectRoot} is not trusted: checks will not run automatically (trust the folder, or open the session with trusted: true)`,
    );
  if (!loaded.trusted && loaded.withheld.length > 0) {
    const withheld = [...loaded.withheld];
    await session.journal.record(
      "trust",
      { projectRoot: session.projectRoot, withheld, decision: "required" },
      { type: "trustRequired", projectRoot: session.projectRoot, withheld },
    );
    const replaced = replacedServersText(replacedMcpServers(loaded.layers));
    if (replaced) await session.journal.notice("warning", "trust.mcpReplaced", replaced);
    const variables = mcpVariablesReport(session.projectRoot, loaded);
    if (variables) await session.journal.notice("info", "trust.mcpVariables", variables);
  }
}

/**
 * Once the session is open, a session that is not running a turn by then starts its MCP
 * servers and readies its checkpoint store (where the user's repository is, the shadow
 * repository's layout), so a turn's snapshot starts at listing the files. A session whose
 * first turn started at once does neither here: no child process runs before that turn's
 * first request, which releases both.
 */
function whenIdleAfterOpen(session: EngineSession): void {
  setTimeout(() => {
    if (session.busy) return;
    session.mcp.releaseStarts();
    // Tracked, so close waits for it: the warm-up writes into the data folder, which a
    // temporary engine removes once its sessions are closed.
    if (session.checkpoints && !session.commandSignal.aborted) {
      session.track(session.checkpoints.warm());
    }
  }, 0).unref();
}

async function sessionStartHooks(
  session: EngineSession,
  source: "startup" | "resume",
): Promise<void> {
  const hook = await runHook(session, "SessionStart", { source }, { subject: source });
  if (!hook) return;
  for (const [i, text] of hook.additionalContext.entries())
    session.reminders.add({ key: `session-start:${i}`, text });
}

/**
 * Creates a session for a project folder (under `id` when given) and opens it (SessionStart
 * hooks run). Rejects when the folder does not exist or the store fails (`exists` for a taken id).
 */
export async function createEngineSession(
  ctx: OpenContext,
  folder: string,
  overrides: SessionOverrides = {},
  id?: string,
): Promise<EngineSession> {
  const projectRoot = await realFolder(folder);
  const prep = await prepare(ctx, projectRoot, overrides);
  const log = await ctx.store.create({
    ...(id === undefined ? {} : { id }),
    projectRoot,
    mode: prep.config.mode,
    model: prep.config.model,
    ...(prep.config.effort ? { effort: prep.config.effort } : {}),
  });
  const notices: string[] = [];
  let session: EngineSession;
  try {
    session = await buildSession(ctx, log, prep, undefined, notices);
  } catch (error) {
    await log.close();
    throw error;
  }
  await announce(session, prep.loaded, notices);
  await sessionStartHooks(session, "startup");
  whenIdleAfterOpen(session);
  return session;
}

/**
 * Opens a session by id: the store repairs and replays its log; a crashed session's open
 * work is closed (an unfinished turn becomes interrupted, unanswered calls get "interrupted"
 * results, running subagents fail, open questions and plans are dismissed) and what was
 * damaged is reported in notices. Rejects when the store cannot open it (unknown id, locked).
 */
export async function resumeEngineSession(
  ctx: OpenContext,
  id: string,
  overrides: SessionOverrides = {},
): Promise<EngineSession> {
  const opened = await ctx.store.open(id);
  const notices: string[] = [];
  let session: EngineSession;
  let prep: Prepared;
  try {
    const root = opened.replay.state.projectRoot;
    if (root === null)
      throw new Error(`session ${id} has no project folder (a v1 chat): it cannot run turns`);
    const projectRoot = await realFolder(root).catch(() => {
      throw new Error(`the session's project folder ${root} no longer exists`);
    });
    prep = await prepare(ctx, projectRoot, overrides, opened.replay.state.model ?? undefined);
    session = await buildSession(ctx, opened.session, prep, opened, notices);
  } catch (error) {
    await opened.session.close();
    throw error;
  }
  await repairCrash(session, opened);
  await announce(session, prep.loaded, notices);
  await sessionStartHooks(session, "resume");
  whenIdleAfterOpen(session);
  return session;
}
