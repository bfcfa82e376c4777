import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LoadedSettings, loadSettings } from "@z-engine/config";
import { buildSandboxProfile, createShell, detectSandbox, type Shell } from "@z-engine/host";
import type { ModelClient } from "@z-engine/protocol";
import { builtinTools, type Tool, type ToolPorts } from "@z-engine/tools";
import { discoverChecks, mergeChecks } from "@z-engine/verify";
import type { SessionConfig, SessionOverrides } from "../settings/session-config.js";
import type { SandboxState } from "../core/session-core.js";
import type { OpenContext } from "./open-context.js";
import { type EnvSettings, withSettingsEnv } from "../launch/program-env.js";
import { buildFilesDoor, type DoorPlace } from "../core/project-doors.js";

// The services a session is built from: its settings, shell and sandbox, tools, checks and
// model clients. `buildSession` in open.ts puts them together.

/**
 * Loads the project's settings as trusted or not (config's layers with the host's settings
 * object, env overrides, trust gate). A session's `trusted: true` trusts the folder without
 * writing trust.json; its `verification` joins the host's layer.
 */
export function loadProjectSettings(
  ctx: OpenContext,
  projectRoot: string,
  overrides: SessionOverrides = {},
): LoadedSettings {
  const host = overrides.verification
    ? {
        ...ctx.hostSettings,
        verification: {
          ...sectionOf(ctx.hostSettings, "verification"),
          mode: overrides.verification,
        },
      }
    : ctx.hostSettings;
  return loadSettings({
    env: ctx.env,
    paths: ctx.paths,
    projectRoot,
    trusted: overrides.trusted === true ? true : ctx.trustStore,
    ...(host ? { hostSettings: host } : {}),
  });
}

function sectionOf(settings: Readonly<Record<string, unknown>> | undefined, key: string) {
  const value = settings?.[key];
  return typeof value === "object" && value !== null ? value : {};
}

/** A session's shell and sandbox, and the same for an agent rooted elsewhere (see `SessionCore.confine`). */
export interface SessionShell {
  readonly shell: Shell;
  readonly sandbox: SandboxState;
  readonly confine?: (root: string) => { readonly shell: Shell; readonly sandbox: SandboxState };
}

/**
 * The shell commands run in, inside the sandbox when the settings turn it on (a notice when
 * none can run), and `confine` to build the same for another root. Every profile keeps the
 * worktree agents' repositories (`<data>/worktrees`) read-only, wherever the data folder is.
 * Every command gets the settings' `[env]` as they are when it starts (`withSettingsEnv`),
 * on a host's own shell too.
 */
export async function shellFor(
  ctx: OpenContext,
  config: SessionConfig,
  projectRoot: string,
  dirs: readonly string[],
  notices: string[],
  /** Where a sandboxed command's warnings go (a `.git` it created): the session's notices. */
  warn: (message: string) => void = () => {},
  /** The session's settings now, for `[env]` (default: `config`'s, fixed). */
  settingsNow: () => EnvSettings = () => config.settings,
): Promise<SessionShell> {
  const built = await bareShellFor(ctx, config, projectRoot, dirs, notices, warn);
  const wrap = (shell: Shell) => withSettingsEnv(shell, settingsNow);
  const { confine } = built;
  return {
    shell: wrap(built.shell),
    sandbox: built.sandbox,
    ...(confine
      ? {
          confine: (root: string) => {
            const confined = confine(root);
            return { shell: wrap(confined.shell), sandbox: confined.sandbox };
          },
        }
      : {}),
  };
}

async function bareShellFor(
  ctx: OpenContext,
  config: SessionConfig,
  projectRoot: string,
  dirs: readonly string[],
  notices: string[],
  warn: (message: string) => void,
): Promise<SessionShell> {
  const none: SandboxState = { writableRoots: [], active: false, autoAllow: false };
  const program = config.settings.shell.program;
  if (ctx.shell) return { shell: ctx.shell, sandbox: none };
  const box = config.settings.shell.sandbox;
  // The host's own shell (an editor's terminals) only when the settings want no sandbox:
  // with the sandbox on, commands run in the engine's shell, confined when it can be.
  const plain = (sandbox: SandboxState): SessionShell => {
    const own = box.enabled ? undefined : ctx.sessionShell;
    const shell = own ?? createShell({ ...(program ? { program } : {}), baseEnv: ctx.childEnv });
    return { shell, sandbox, confine: () => ({ shell, sandbox }) };
  };
  if (!box.enabled) return plain(none);
  if (ctx.sessionShell)
    notices.push(
      "The sandbox is on in the settings: commands run in the engine's sandboxed shell, not the host's own shell (the editor's terminals).",
    );
  const detected =
    ctx.sandbox === null
      ? { backend: null, reason: "the host turned the sandbox off" }
      : await detectSandbox(ctx.sandbox ? { backend: ctx.sandbox } : {});
  const backend = detected.backend;
  if (!backend) {
    notices.push(unconfinedNotice(detected.reason));
    return plain({ ...none, unavailable: detected.reason });
  }
  const confine = (root: string) => {
    const profile = buildSandboxProfile({
      root,
      additionalDirectories: dirs,
      extraWritable: box.extra_writable,
      homeDir: ctx.homeDir,
      tmpDir: tmpdir(),
      allowNetwork: box.allow_network,
      readOnly: [join(ctx.paths.dataDir, "worktrees")],
    });
    const shell = createShell({
      ...(program ? { program } : {}),
      baseEnv: ctx.childEnv,
      sandbox: { backend, profile },
      onSandboxWarning: warn,
    });
    const sandbox = { writableRoots: profile.writable, active: true, autoAllow: box.auto_allow };
    return { shell, sandbox };
  };
  return { ...confine(projectRoot), confine };
}

/** What a session says when its sandbox cannot run: what really happens to commands. */
export function unconfinedNotice(reason: string): string {
  return `The sandbox is on in the settings but cannot run (${reason}). Commands run unconfined, so each one needs your approval: bypass mode and sandbox auto-allow do not apply to them, and headless runs deny them (your allow rules still apply).`;
}

/** The tools that reach the web; `web.enabled = false` withholds them. */
const WEB_TOOLS: ReadonlySet<string> = new Set(["WebFetch", "WebSearch"]);

/**
 * The tools offered: built-ins and the host's own (same name replaces), minus those whose
 * ports are absent, and minus WebFetch and WebSearch when `webEnabled` is false.
 */
export function offeredTools(extra: readonly Tool[], ports: ToolPorts, webEnabled = true): Tool[] {
  const byName = new Map<string, Tool>();
  for (const tool of [...builtinTools(), ...extra]) byName.set(tool.name, tool);
  return [...byName.values()].filter(
    (t) =>
      t.requires.every((p) => ports[p] !== undefined) && (webEnabled || !WEB_TOOLS.has(t.name)),
  );
}

/**
 * The checks of a project: discovered (build files read through {@link buildFilesDoor}), plus
 * configured ones (which replace same ids).
 */
export async function projectChecks(place: DoorPlace, config: SessionConfig) {
  const files = buildFilesDoor(place, config);
  const discovered = await discoverChecks(place.projectRoot, { files }).catch(() => ({
    checks: [],
    problems: [],
  }));
  return mergeChecks(discovered.checks, config.settings.verification.checks);
}

/** The client for a role and model, built once per pair. */
export function clientCache(
  ctx: OpenContext,
  config: () => SessionConfig,
): (role: "main" | "fast", model: string) => ModelClient {
  const cache = new Map<string, ModelClient>();
  return (role, model) => {
    const key = `${role}:${model}`;
    let client = cache.get(key);
    if (!client) {
      client = ctx.clientFactory({ role, model, settings: config().settings });
      cache.set(key, client);
    }
    return client;
  };
}
