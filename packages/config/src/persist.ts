import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseForPatch, patch } from "@decimalturn/toml-patch";
import { writeFileAtomic } from "./atomic-write.js";
import type { RuleList } from "./effective.js";
import { ConfigError } from "./errors.js";
import { loadV1File } from "./layer-file.js";
import { PROJECT_FILES, renderSettings } from "./layers.js";
import type { SettingsProblem } from "./problems.js";
import { ruleError } from "./rules.js";

/** Which project settings file to edit. */
export type ProjectSettingsFile = "settings" | "local";

/** A TOML document as plain data: tables are objects. */
export type TomlTable = Record<string, unknown>;

/** What an edit did. */
export interface EditResult {
  readonly file: string;
  /** True when the file did not exist before. */
  readonly created: boolean;
}

const GITIGNORE_LINE = "settings.local.toml";
const queues = new Map<string, Promise<unknown>>();

/** Runs edits of one file one at a time within this process, so none is lost. */
function serialised<T>(file: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.then(work, work);
  queues.set(
    file,
    next.catch(() => undefined),
  );
  return next;
}

/** A file's text, or undefined when it is missing; ConfigError `writeFailed` when unreadable. */
export async function readOrUndefined(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError("writeFailed", `cannot read ${file}`, { cause: error });
  }
}

/** Makes sure `.z-engine/.gitignore` lists settings.local.toml, keeping what it has. */
async function ensureGitignore(projectRoot: string): Promise<void> {
  const file = join(projectRoot, ".z-engine", ".gitignore");
  const current = (await readOrUndefined(file)) ?? "";
  if (current.split(/\r?\n/).some((line) => line.trim() === GITIGNORE_LINE)) return;
  const separator = current === "" || current.endsWith("\n") ? "" : "\n";
  await writeFileAtomic(file, `${current}${separator}${GITIGNORE_LINE}\n`);
}

/** The starting document of a missing file: the v1 conversion for settings.toml, else empty. */
function startingDocument(projectRoot: string, which: ProjectSettingsFile): TomlTable {
  if (which !== "settings") return {};
  const problems: SettingsProblem[] = [];
  return (loadV1File(join(projectRoot, PROJECT_FILES.v1), problems) ?? {}) as TomlTable;
}

/**
 * The text of a settings file after `mutate`: the difference patched into `source` (comments,
 * order and other keys kept), or `start()` rendered when the file is missing. Throws
 * ConfigError `settingsUnparseable` when `source` is not TOML.
 */
export function editedText(
  file: string,
  source: string | undefined,
  start: () => TomlTable,
  mutate: (doc: TomlTable) => void,
): string {
  if (source === undefined) {
    const doc = start();
    mutate(doc);
    return renderSettings(doc);
  }
  let doc: TomlTable;
  try {
    doc = parseForPatch(source) as TomlTable;
  } catch (cause) {
    throw new ConfigError("settingsUnparseable", `${file} is not valid TOML; not editing it`, {
      cause,
    });
  }
  mutate(doc);
  return patch(source, doc);
}

async function editOnce(
  projectRoot: string,
  which: ProjectSettingsFile,
  file: string,
  mutate: (doc: TomlTable) => void,
): Promise<EditResult> {
  const source = await readOrUndefined(file);
  const output = editedText(file, source, () => startingDocument(projectRoot, which), mutate);
  try {
    if (source === undefined && which === "local") await ensureGitignore(projectRoot);
    await writeFileAtomic(file, output);
  } catch (cause) {
    throw new ConfigError("writeFailed", `cannot write ${file}`, { cause });
  }
  return { file, created: source === undefined };
}

/**
 * Edits a project settings file (`.z-engine/settings.toml` or `settings.local.toml`):
 * `mutate` changes the parsed document in place and toml-patch writes only the difference,
 * so comments, order and other keys survive. A missing settings.toml starts from the
 * project's v1 config.toml when there is one (this is when a v1 project is converted); a
 * missing settings.local.toml is created and `.z-engine/.gitignore` made to list it.
 * Edits of one file in this process run one at a time. Rejects with ConfigError
 * `settingsUnparseable` (the file is not valid TOML; left as it is) or `writeFailed`.
 */
export function editProjectSettings(
  projectRoot: string,
  which: ProjectSettingsFile,
  mutate: (doc: TomlTable) => void,
): Promise<EditResult> {
  const file = join(
    projectRoot,
    which === "settings" ? PROJECT_FILES.settings : PROJECT_FILES.local,
  );
  return serialised(file, () => editOnce(projectRoot, which, file, mutate));
}

function table(parent: TomlTable, key: string): TomlTable {
  const existing = parent[key];
  if (typeof existing === "object" && existing !== null && !Array.isArray(existing)) {
    return existing as TomlTable;
  }
  const created: TomlTable = {};
  parent[key] = created;
  return created;
}

/**
 * Persists an "allow (or ask, deny) in this project" rule into the project's
 * `.z-engine/settings.local.toml`, keeping everything else in it, comments included, and
 * creating it (gitignored) when missing. A rule already in the list is not added twice.
 * Rejects with ConfigError `invalidRule` for a rule of no known form (nothing written),
 * or as editProjectSettings does.
 */
export async function persistProjectRule(
  projectRoot: string,
  list: RuleList,
  rule: string,
): Promise<EditResult> {
  const error = ruleError(rule);
  if (error !== undefined) throw new ConfigError("invalidRule", `bad rule \`${rule}\`: ${error}`);
  return editProjectSettings(projectRoot, "local", (doc) => {
    const permissions = table(doc, "permissions");
    const current = Array.isArray(permissions[list]) ? (permissions[list] as unknown[]) : [];
    if (!current.includes(rule)) permissions[list] = [...current, rule];
  });
}

/**
 * Adds a folder to the project's `permissions.additional_directories` in
 * settings.local.toml (`/add-dir --save`), like persistProjectRule.
 */
export async function persistAdditionalDirectory(
  projectRoot: string,
  folder: string,
): Promise<EditResult> {
  return editProjectSettings(projectRoot, "local", (doc) => {
    const permissions = table(doc, "permissions");
    const key = "additional_directories";
    const current = Array.isArray(permissions[key]) ? (permissions[key] as unknown[]) : [];
    if (!current.includes(folder)) permissions[key] = [...current, folder];
  });
}
