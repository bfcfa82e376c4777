import { isAbsolute, resolve } from "node:path";
import type { CheckDefinition } from "@z-engine/protocol";
import { defaultSettings } from "./defaults.js";
import type { EffectiveSettings, RuleList, SettingsOrigin } from "./effective.js";
import type { SettingsLayer } from "./layer-file.js";
import { HookEvent, type SettingsFile } from "./schema.js";

/** What merging needs besides the layers. */
export interface MergeContext {
  /** For `~` in folder lists. */
  readonly home: string;
}

type Section<K extends keyof SettingsFile> = NonNullable<SettingsFile[K]>;

/** Copies the defined keys of `from` onto `to` (single values: the higher layer wins). */
function assignDefined<T extends object>(to: T, from: Partial<T> | undefined): void {
  if (!from) return;
  for (const [key, value] of Object.entries(from)) {
    if (value !== undefined) {
      (to as Record<string, unknown>)[key] = Array.isArray(value) ? [...value] : value;
    }
  }
}

/** `~` → home; a relative folder → against the layer's root. */
function resolveFolder(folder: string, layer: SettingsLayer, ctx: MergeContext): string {
  if (folder === "~") return ctx.home;
  if (folder.startsWith("~/")) return resolve(ctx.home, folder.slice(2));
  return isAbsolute(folder) ? resolve(folder) : resolve(layer.root, folder);
}

function addFolders(
  to: string[],
  from: string[] | undefined,
  layer: SettingsLayer,
  ctx: MergeContext,
) {
  for (const folder of from ?? []) {
    const path = resolveFolder(folder, layer, ctx);
    if (!to.includes(path)) to.push(path);
  }
}

function origin(layer: SettingsLayer): SettingsOrigin {
  return { level: layer.level, file: layer.file, root: layer.root };
}

function applyPermissions(eff: EffectiveSettings, layer: SettingsLayer, ctx: MergeContext) {
  const p: Section<"permissions"> | undefined = layer.values.permissions;
  if (!p) return;
  if (p.mode !== undefined) eff.permissions.mode = p.mode;
  if (p.auto_allow_read_only_bash !== undefined) {
    eff.permissions.auto_allow_read_only_bash = p.auto_allow_read_only_bash;
  }
  for (const list of ["allow", "ask", "deny"] as RuleList[]) {
    for (const rule of p[list] ?? []) eff.permissions[list].push({ rule, origin: origin(layer) });
  }
  addFolders(eff.permissions.additional_directories, p.additional_directories, layer, ctx);
}

function applyHooks(eff: EffectiveSettings, layer: SettingsLayer) {
  const hooks = layer.values.hooks;
  if (!hooks) return;
  for (const event of HookEvent.options) {
    for (const hook of hooks[event] ?? [])
      eff.hooks[event].push({ ...hook, origin: origin(layer) });
  }
}

function applyVerification(eff: EffectiveSettings, layer: SettingsLayer) {
  const v = layer.values.verification;
  if (!v) return;
  const { checks, ...single } = v;
  assignDefined(eff.verification, single);
  for (const check of checks ?? []) {
    const definition: CheckDefinition = {
      id: check.id as CheckDefinition["id"],
      kind: check.kind,
      command: check.command,
      cwd: check.cwd ?? ".",
      source: "configured",
    };
    const at = eff.verification.checks.findIndex((c) => c.id === check.id);
    if (at >= 0) eff.verification.checks[at] = definition;
    else eff.verification.checks.push(definition);
  }
}

function applyShell(eff: EffectiveSettings, layer: SettingsLayer, ctx: MergeContext) {
  const shell = layer.values.shell;
  if (!shell) return;
  if (shell.program !== undefined) eff.shell.program = shell.program;
  const { extra_writable, ...sandbox } = shell.sandbox ?? {};
  assignDefined(eff.shell.sandbox, sandbox);
  addFolders(eff.shell.sandbox.extra_writable, extra_writable, layer, ctx);
}

function applySimple(eff: EffectiveSettings, values: SettingsFile) {
  const { provider, web, decisions, model } = values;
  if (provider) {
    const { headers, ...rest } = provider;
    assignDefined(eff.provider, rest);
    Object.assign(eff.provider.headers, headers);
  }
  if (web) {
    const { search_headers, ...rest } = web;
    assignDefined(eff.web, rest);
    Object.assign(eff.web.search_headers, search_headers);
  }
  assignDefined(eff.model, model);
  assignDefined(eff.decisions, decisions);
  assignDefined(eff.context, values.context);
  assignDefined(eff.agents, values.agents);
  assignDefined(eff.appearance, values.appearance);
  assignDefined(eff.catalog, values.catalog);
  // Maps keyed by a name: an entry replaces the one of the same name.
  Object.assign(eff.mcp.servers, values.mcp?.servers);
  Object.assign(eff.lsp.servers, values.lsp?.servers);
  if (values.lsp?.enabled !== undefined) eff.lsp.enabled = values.lsp.enabled;
  Object.assign(eff.pricing, values.pricing);
  Object.assign(eff.experimental, values.experimental);
  // Per variable: a higher layer's value replaces a lower one's.
  Object.assign(eff.env, values.env);
}

/** Applies one layer on top of `eff`, in place. */
export function applyLayer(eff: EffectiveSettings, layer: SettingsLayer, ctx: MergeContext): void {
  applySimple(eff, layer.values);
  applyPermissions(eff, layer, ctx);
  applyHooks(eff, layer);
  applyVerification(eff, layer);
  applyShell(eff, layer, ctx);
}

/**
 * Merges layers (lowest first) over the defaults: single values, the higher layer wins;
 * allow/ask/deny rules, additional_directories and extra_writable combine; hook lists add
 * up; checks merge by id; an MCP or LSP server, a price or an experimental switch replaces
 * the one of the same name; header maps and `[env]` merge per name. `model.fast` and `model.review`
 * default to `model.main`. Pure; never throws.
 */
export function mergeLayers(
  layers: readonly SettingsLayer[],
  ctx: MergeContext,
): EffectiveSettings {
  const eff = defaultSettings();
  for (const layer of layers) applyLayer(eff, layer, ctx);
  if (eff.model.fast === "") eff.model.fast = eff.model.main;
  if (eff.model.review === "") eff.model.review = eff.model.main;
  return eff;
}
