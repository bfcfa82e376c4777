import { tmpdir } from "node:os";
import { type LoadedSettings, loadSettings } from "@z-engine/config";
import { buildSandboxProfile, createShell, detectSandbox } from "@z-engine/host";
import type { ModelClient } from "@z-engine/protocol";
import { builtinTools, type Tool, type ToolPorts } from "@z-engine/tools";
import { discoverChecks, mergeChecks } from "@z-engine/verify";
import type { SessionConfig, SessionOverrides } from "../settings/session-config.js";
import type { SandboxState } from "./core.js";
import type { OpenContext } from "./open-context.js";

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

/** The shell commands run in, inside the sandbox when the settings turn it on (a notice when none can run). */
export async function shellFor(
  ctx: OpenContext,
  config: SessionConfig,
  projectRoot: string,
  dirs: readonly string[],
  notices: string[],
) {
  const none: SandboxState = { writableRoots: [], active: false, autoAllow: false };
  const program = config.settings.shell.program;
  if (ctx.shell) return { shell: ctx.shell, sandbox: none };
  const box = config.settings.shell.sandbox;
  if (!box.enabled)
    return {
      shell:
        ctx.sessionShell ?? createShell({ ...(program ? { program } : {}), baseEnv: ctx.childEnv }),
      sandbox: none,
    };
  if (ctx.sessionShell)
    notices.push(
      "The sandbox is on in the settings: commands run in the engine's sandboxed shell, not the host's own shell (the editor's terminals).",
    );
  const detected =
    ctx.sandbox === null
      ? { backend: null, reason: "the host turned the sandbox off" }
      : await detectSandbox(ctx.sandbox ? { backend: ctx.sandbox } : {});
  if (!detected.backend) {
    notices.push(
      `The sandbox is on in the settings but cannot run (${detected.reason}); commands run unconfined and keep asking.`,
    );
    return {
      shell: createShell({ ...(program ? { program } : {}), baseEnv: ctx.childEnv }),
      sandbox: none,
    };
  }
  const profile = buildSandboxProfile({
    root: projectRoot,
    additionalDirectories: dirs,
    extraWritable: box.extra_writable,
    homeDir: ctx.homeDir,
    tmpDir: tmpdir(),
    allowNetwork: box.allow_network,
  });
  return {
    shell: createShell({
      ...(program ? { program } : {}),
      baseEnv: ctx.childEnv,
      sandbox: { backend: detected.backend, profile },
    }),
    sandbox: { writableRoots: profile.writable, active: true, autoAllow: box.auto_allow },
  };
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

/** The checks of a project: discovered, plus configured ones (which replace same ids). */
export async function projectChecks(projectRoot: string, config: SessionConfig) {
  const discovered = await discoverChecks(projectRoot).catch(() => ({ checks: [], problems: [] }));
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
