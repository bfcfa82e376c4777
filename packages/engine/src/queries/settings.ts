import { join } from "node:path";
import {
  editProjectSettings,
  gatedProjectValues,
  type GatedProjectValue,
  PROJECT_FILES,
  type RuleList,
  type SettingWithOrigin,
  settingOrigins,
  type ValueOrigin,
} from "@z-engine/config";
import { parseRule } from "@z-engine/policy";
import type { SessionHandle } from "../session/handle.js";
import { loadProjectSettings } from "../session/services.js";
import { reloadSessionSettings } from "../session/reload-settings.js";
import { type QueryTarget, targetOf } from "./registry.js";

/** A permission rule as the Settings screen lists it. */
export interface RuleView {
  readonly list: RuleList;
  readonly rule: string;
  readonly origin: ValueOrigin;
  /** False for a project's allow rule while the folder is untrusted (withheld). */
  readonly applies: boolean;
  /** Whether the screen may change it: rules of the project's two files. */
  readonly editable: boolean;
}

/** The effective settings with their origins, the rules, the session's own rules and the problems. */
export interface SettingsReport {
  readonly projectRoot: string;
  readonly trusted: boolean;
  readonly values: readonly SettingWithOrigin[];
  readonly rules: readonly RuleView[];
  /** Rules added in this chat ("Always in this chat"), by list. */
  readonly sessionRules: readonly { readonly list: RuleList; readonly rule: string }[];
  readonly problems: readonly string[];
  /** The files a rule may be saved to: the project's shared and personal settings. */
  readonly files: { readonly project: string; readonly local: string; readonly user: string };
}

const LISTS: readonly RuleList[] = ["allow", "ask", "deny"];

function loaded(target: QueryTarget) {
  return loadProjectSettings(target.ctx, target.session.projectRoot, target.overrides);
}

function rulesOf(settings: ReturnType<typeof loaded>): RuleView[] {
  const out: RuleView[] = [];
  for (const list of LISTS) {
    for (const entry of settings.settings.permissions[list]) {
      const { level, file } = entry.origin;
      out.push({
        list,
        rule: entry.rule,
        origin: { level, ...(file ? { file } : {}) },
        applies: true,
        editable: level === "project" || level === "local",
      });
    }
  }
  if (!settings.trusted) {
    for (const layer of settings.layers) {
      if (layer.level !== "project" && layer.level !== "local") continue;
      for (const rule of layer.values.permissions?.allow ?? [])
        out.push({
          list: "allow",
          rule,
          origin: { level: layer.level, file: layer.file },
          applies: false,
          editable: true,
        });
    }
  }
  return out;
}

/**
 * The session's settings as they stand in its files now: every effective value with the
 * layer it comes from, the permission rules with theirs (withheld ones marked), the rules
 * added in this chat, and what could not be read. Reads the settings files; never rejects.
 */
export function settingsReport(handle: SessionHandle): SettingsReport {
  const target = targetOf(handle);
  const { session } = target;
  const now = loaded(target);
  const rules = session.sessionRules;
  return {
    projectRoot: session.projectRoot,
    trusted: now.trusted,
    values: settingOrigins(now),
    rules: rulesOf(now),
    sessionRules: LISTS.flatMap((list) => rules[list].map((r) => ({ list, rule: r.rule.text }))),
    problems: now.problems.map(
      (p) => `${p.file}${p.line ? `:${p.line}` : ""}${p.key ? ` (${p.key})` : ""}: ${p.message}`,
    ),
    files: {
      project: join(session.projectRoot, PROJECT_FILES.settings),
      local: join(session.projectRoot, PROJECT_FILES.local),
      user: target.ctx.paths.userSettingsFile,
    },
  };
}

/** A change to one permission rule in the project's settings. */
export interface RuleEdit {
  readonly action: "add" | "remove" | "replace";
  readonly list: RuleList;
  readonly rule: string;
  /** For `replace`: the new text (it may also move to `newList`). */
  readonly newRule?: string;
  readonly newList?: RuleList;
  /** `local` (settings.local.toml, personal, gitignored) or `project` (settings.toml, shared). */
  readonly file: "local" | "project";
}

/** What an edit did: the rule saved (the session reloaded its settings), or why not. */
export type RuleEditOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: string };

function listOf(doc: Record<string, unknown>, list: RuleList): string[] {
  const permissions = doc.permissions;
  if (typeof permissions !== "object" || permissions === null) return [];
  const value = (permissions as Record<string, unknown>)[list];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function setList(doc: Record<string, unknown>, list: RuleList, rules: string[]): void {
  const existing = doc.permissions;
  const permissions =
    typeof existing === "object" && existing !== null && !Array.isArray(existing)
      ? (existing as Record<string, unknown>)
      : {};
  permissions[list] = rules;
  doc.permissions = permissions;
}

/**
 * Adds, removes or replaces a permission rule in the project's settings.toml or
 * settings.local.toml (toml-patch keeps comments and every other key), then reloads the
 * session's settings so the rule applies from the next call, and records an info notice.
 * A rule of no known form, a file that does not parse, or a rule not in the file is a
 * refusal value with the reason; a running turn is not waited for (the next call sees the
 * new rules). Rejects only when the log refuses the notice.
 */
export async function editPermissionRule(
  handle: SessionHandle,
  edit: RuleEdit,
): Promise<RuleEditOutcome> {
  const target = targetOf(handle);
  const text = (edit.action === "replace" ? edit.newRule : edit.rule)?.trim() ?? "";
  if (edit.action !== "remove") {
    const parsed = parseRule(text);
    if (!parsed.ok) return { ok: false, reason: `\`${text}\` is not a rule: ${parsed.error}` };
  }
  let found = edit.action === "add";
  try {
    await editProjectSettings(
      target.session.projectRoot,
      edit.file === "local" ? "local" : "settings",
      (doc) => {
        const rules = listOf(doc, edit.list);
        const at = rules.indexOf(edit.rule);
        if (edit.action === "add") {
          if (!rules.includes(text)) setList(doc, edit.list, [...rules, text]);
          return;
        }
        if (at < 0) return;
        found = true;
        rules.splice(at, 1);
        const to = edit.newList ?? edit.list;
        if (edit.action === "replace" && to === edit.list) rules.splice(at, 0, text);
        setList(doc, edit.list, rules);
        if (edit.action === "replace" && to !== edit.list) {
          const other = listOf(doc, to);
          if (!other.includes(text)) setList(doc, to, [...other, text]);
        }
      },
    );
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  if (!found)
    return { ok: false, reason: `\`${edit.rule}\` is not in that file's ${edit.list} list` };
  await reloadSessionSettings(target.ctx, reloadTarget(target), target.overrides);
  const what = edit.action === "add" ? "added" : edit.action === "remove" ? "removed" : "changed";
  await target.session.journal.notice(
    "info",
    "settings.ruleEdited",
    `Permission rule ${what}: ${edit.list} \`${edit.action === "remove" ? edit.rule : text}\` (${edit.file === "local" ? PROJECT_FILES.local : PROJECT_FILES.settings})`,
  );
  return { ok: true };
}

function reloadTarget(target: QueryTarget) {
  const { session } = target;
  return {
    id: session.id,
    projectRoot: session.projectRoot,
    logPath: session.logPath,
    state: session.state,
    ...(session.repoMap ? { repoMap: session.repoMap } : {}),
    mcp: session.mcp,
  };
}

/** What trusting an untrusted project would apply, for the Settings screen's trust section. */
export interface TrustReport {
  readonly projectRoot: string;
  readonly trusted: boolean;
  /** Each withheld category with each project file's value (secrets hidden). */
  readonly wouldApply: readonly GatedProjectValue[];
}

/**
 * The trust report of the session's project (architecture.md's `trust_report`): whether it is
 * trusted and every trust-gated setting its files set. Reads the settings files; never rejects.
 * The trust action itself is the `trustWorkspace` command.
 */
export function trustReport(handle: SessionHandle): TrustReport {
  const target = targetOf(handle);
  const now = loaded(target);
  return {
    projectRoot: target.session.projectRoot,
    trusted: now.trusted,
    wouldApply: gatedProjectValues(now.layers),
  };
}
