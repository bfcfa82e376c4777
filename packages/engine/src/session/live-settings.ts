import { relative } from "node:path";
import { type LoadedSettings, type SettingsProblem, settingsFiles } from "@z-engine/config";
import type { SessionLsp } from "../lsp/hub.js";
import type { FileWatches } from "../settings/file-watch.js";
import {
  type SessionConfig,
  type SessionOverrides,
  sessionConfig,
} from "../settings/session-config.js";
import { changedEntries, changedSettings } from "../settings/settings-diff.js";
import type { LiveSettingsHooks } from "../core/session-core.js";
import type { Journal } from "../journal/journal.js";
import type { OpenContext } from "./open-context.js";
import { type ReloadTarget, reloadSessionSettings } from "./reload-settings.js";
import { loadProjectSettings } from "./services.js";

/** What live settings change in a session, beside what a reload does. */
export interface LiveTarget extends ReloadTarget {
  readonly journal: Journal;
  readonly lsp: Pick<SessionLsp, "reconcile">;
  /** Whether a turn runs now: then the edit waits for the next round. */
  readonly busy: () => boolean;
}

const problemText = (p: SettingsProblem) =>
  `${p.file}${p.line ? `:${p.line}` : ""}${p.key ? ` (${p.key})` : ""}: ${p.message}`;

/**
 * A session's settings as their files change (issue 46): every file `loadSettings` reads is
 * watched ({@link FileWatches}); after an edit the settings are loaded again as at open (the
 * same loader, the same trust gate: an untrusted project's gated settings still come from the
 * user level) and checked. An edit with a problem the last good load did not have (a file
 * that does not parse, a bad key, a rule of no known form) keeps the last good settings and
 * gives one warning saying what is wrong; a good edit is put in place at once while the
 * session is idle, else at the start of the next round, restarts only the MCP and language
 * servers whose entries changed, and gives one info notice naming what changed. The mode,
 * model and effort follow a changed setting at the next turn's start, unless the session has
 * chosen its own (a flag, `/model`).
 */
export class LiveSettings implements LiveSettingsHooks {
  private readonly stops: (() => void)[] = [];
  private readonly changedFiles = new Set<string>();
  private pending = false;
  private chain: Promise<void> = Promise.resolve();
  /** The problems of the settings in place (already reported), by text. */
  private known: Set<string>;
  /** The problems last reported as keeping the old settings (reported once). */
  private reported = "";
  /** Mode and model moves waiting for the next turn's start. */
  private moves: { readonly previous: SessionConfig; readonly config: SessionConfig } | undefined;
  private closed = false;
  /** Each layer's values in the settings in place, by file: what an edit changed is named from it. */
  private layers: ReadonlyMap<string, string>;

  constructor(
    private readonly ctx: OpenContext,
    private readonly target: LiveTarget,
    private readonly overrides: SessionOverrides,
    loaded: LoadedSettings,
    watches: FileWatches,
  ) {
    this.known = new Set(problemsOf(loaded, sessionConfig(loaded, overrides)));
    this.layers = layerValues(loaded);
    for (const { file } of settingsFiles(ctx.paths, target.projectRoot))
      this.stops.push(watches.watch(file, (f) => this.changed(f)));
  }

  /** A watched file may have changed. */
  private changed(file: string): void {
    if (this.closed) return;
    this.changedFiles.add(file);
    if (this.target.busy()) this.pending = true;
    else void this.apply();
  }

  /** At each round's start: puts an edit made during the turn in place. Never rejects. */
  async atRound(): Promise<void> {
    if (this.pending) await this.apply();
  }

  /** At each turn's start: the edits, and the mode and model moves they make. Never rejects. */
  async atTurnStart(): Promise<void> {
    await this.atRound();
    await this.chain;
    const moves = this.moves;
    this.moves = undefined;
    if (moves) await this.move(moves.previous, moves.config).catch(() => {});
  }

  /** As a turn ends: an edit that waited for a round that never came goes in now. */
  afterTurn(): void {
    if (this.pending) void this.apply();
  }

  /** Stops watching (the session closes). */
  close(): void {
    this.closed = true;
    for (const stop of this.stops.splice(0)) stop();
  }

  private apply(): Promise<void> {
    this.pending = false;
    this.chain = this.chain.then(() => this.reload().catch(() => {}));
    return this.chain;
  }

  private async reload(): Promise<void> {
    if (this.closed || this.changedFiles.size === 0) return;
    this.changedFiles.clear();
    const { ctx, target, overrides } = this;
    const loaded = loadProjectSettings(ctx, target.projectRoot, overrides);
    const next = sessionConfig(loaded, overrides);
    const problems = problemsOf(loaded, next);
    const fresh = problems.filter((p) => !this.known.has(p));
    if (fresh.length > 0) return this.refuse(fresh);
    this.reported = "";
    this.known = new Set(problems);
    const before = target.state.settings;
    const changed = changedSettings(before.config.settings, next.settings);
    if (loaded.trusted !== before.trusted) changed.unshift("trust");
    const layers = layerValues(loaded);
    const files = [...new Set([...this.layers.keys(), ...layers.keys()])].filter(
      (f) => this.layers.get(f) !== layers.get(f),
    );
    this.layers = layers;
    if (changed.length === 0) return;
    const rebuildMap = changed.some((k) => k.startsWith("context."));
    const { previous, config } = await reloadSessionSettings(ctx, target, overrides, {
      loaded,
      rebuildMap,
    });
    const lsp = await target.lsp.reconcile();
    if (target.busy()) this.moves = { previous: this.moves?.previous ?? previous, config };
    else await this.move(previous, config);
    // With `[lsp]` off (or the project untrusted) the servers stopped do not come back on use.
    const lspOn = next.settings.lsp.enabled && loaded.trusted;
    const text = this.changeText(files, changed, { names: lsp, restart: lspOn });
    await target.journal.notice("info", "settings.changed", text);
  }

  /** A mode, model or effort the settings now give differently moves the session's, if it follows them. */
  private async move(previous: SessionConfig, config: SessionConfig): Promise<void> {
    const state = this.target.state;
    if (config.mode !== previous.mode && state.mode === previous.mode)
      await state.setMode(config.mode);
    if (config.model !== previous.model && state.model === previous.model)
      await state.setModel(config.model);
    if (config.effort && config.effort !== previous.effort && state.effort === previous.effort)
      await state.setEffort(config.effort);
  }

  private async refuse(fresh: readonly string[]): Promise<void> {
    const text = fresh.join("; ");
    if (text === this.reported) return;
    this.reported = text;
    await this.target.journal.notice(
      "warning",
      "settings.invalid",
      `A settings edit was not applied: ${text}. The session keeps its last good settings until the file is fixed.`,
    );
  }

  private changeText(
    files: readonly string[],
    changed: readonly string[],
    lsp: { readonly names: readonly string[]; readonly restart: boolean },
  ): string {
    const root = this.target.projectRoot;
    const where = files.map((f) => (f.startsWith(`${root}/`) ? relative(root, f) : f)).join(", ");
    const parts = [`Settings changed${where ? ` (${where})` : ""}: ${changed.join(", ")}.`];
    const mcp = changedEntries(changed, "mcp.servers");
    if (mcp.length > 0) parts.push(`MCP servers restarted or stopped: ${mcp.join(", ")}.`);
    const servers = lsp.names.join(", ");
    if (servers)
      parts.push(
        lsp.restart
          ? `Language servers restarted on next use: ${servers}.`
          : `Language servers stopped: ${servers}.`,
      );
    return parts.join(" ");
  }
}

/** Each layer read from a file, its values as JSON, by file. */
function layerValues(loaded: LoadedSettings): Map<string, string> {
  const out = new Map<string, string>();
  for (const layer of loaded.layers)
    if (layer.level !== "env") out.set(layer.file, JSON.stringify(layer.values));
  return out;
}

/** The problems of a load and its rules, as notice texts. */
function problemsOf(loaded: LoadedSettings, config: SessionConfig): string[] {
  return [
    ...loaded.problems.map(problemText),
    ...config.ruleErrors.map((e) => `${e.source}: "${e.text}": ${e.error}`),
  ];
}
