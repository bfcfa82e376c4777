// Seeded random project trees and ignore files for the differential test of walkProject
// against `git ls-files -o --exclude-standard` (project-walk.test.ts).
import { createRandom } from "../test-support/seeded-random.js";

/** Names with spaces, dots, `#`, `!`, `[`, `*`, `?`, `\`, unicode and a trailing space. */
const NAMES = [
  "a",
  "b",
  "ab",
  "abc",
  "a b",
  "x.js",
  "y.txt",
  "z.test.js",
  ".hidden",
  ".env",
  "#c",
  "!n",
  "[x]",
  "x]",
  "*s",
  "q?",
  "é",
  "ü.txt",
  "naïve",
  "日本",
  "dir",
  "build",
  "src",
  "lib",
  "node_modules",
  "a.b.c",
  "A",
  "B.JS",
  "sp ",
  "back\\slash",
  "-",
  "a-z",
  "foo",
  "bar",
];

export interface TreeEntry {
  readonly path: string;
  readonly kind: "file" | "dir" | "link";
  /** For a link: its target (relative). */
  readonly target?: string;
}

export interface WalkCase {
  readonly seed: number;
  readonly entries: readonly TreeEntry[];
  /** Folder ("" for the root) → `.gitignore` text. */
  readonly gitignores: ReadonlyMap<string, string>;
  readonly excludesFile: string | null;
  readonly infoExclude: string;
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("empty choice");
  return item;
};

function makeTree(random: Random, dir: string, depth: number, out: TreeEntry[]): void {
  const count = 1 + Math.floor(random() * (depth === 0 ? 6 : 4));
  const used = new Set<string>();
  for (let i = 0; i < count; i++) {
    const name = pick(random, NAMES);
    if (used.has(name)) continue;
    used.add(name);
    const path = dir ? `${dir}/${name}` : name;
    const roll = random();
    if (roll < 0.35 && depth < 3) {
      out.push({ path, kind: "dir" });
      makeTree(random, path, depth + 1, out);
    } else if (roll < 0.42) {
      const targets = out.filter((e) => e.kind !== "link");
      const target = targets.length > 0 ? pick(random, targets).path : "nowhere";
      out.push({ path, kind: "link", target });
    } else {
      out.push({ path, kind: "file" });
    }
  }
}

/** Escapes a name for a pattern, or sometimes leaves its special bytes raw on purpose. */
function literal(random: Random, name: string): string {
  if (random() < 0.25) return name;
  let out = name.replace(/[\\*?[]/g, "\\$&");
  if (out.endsWith(" ")) out = random() < 0.6 ? `${out.slice(0, -1)}\\ ` : out;
  return out;
}

const CLASSES = [
  "[abc]",
  "[a-c]",
  "[!a]",
  "[^a]",
  "[]a]",
  "[a-]",
  "[x-z]",
  "[.]",
  "[é]",
  "[\\]]",
  "[!.#]",
];

/** One glob segment: a known name, mutated with wildcards. */
function segment(random: Random): string {
  const name = pick(random, NAMES);
  const roll = random();
  if (roll < 0.1) return "**";
  if (roll < 0.18) return "*";
  let out = literal(random, name);
  const chars = [...out];
  const mutate = random();
  if (mutate < 0.15 && chars.length > 1) chars[Math.floor(random() * chars.length)] = "?";
  else if (mutate < 0.3) out = `*${out.slice(Math.floor(random() * out.length))}`;
  else if (mutate < 0.45) out = `${out.slice(0, Math.floor(random() * out.length))}*`;
  else if (mutate < 0.55) chars[Math.floor(random() * chars.length)] = pick(random, CLASSES);
  else if (mutate < 0.6) out = `${out}**`;
  else if (mutate < 0.63) out = `**${out}`;
  if (mutate < 0.15 || (mutate >= 0.45 && mutate < 0.55)) out = chars.join("");
  return out;
}

/** One line of an ignore file, from the grammar: comment, blank, escapes, globs, `!`, `/`. */
function line(random: Random): string {
  const roll = random();
  if (roll < 0.05) return `# ${pick(random, NAMES)}`;
  if (roll < 0.08) return random() < 0.5 ? "" : "   ";
  if (roll < 0.085) return "[[:alpha:]]*";
  if (roll < 0.1) return `${pick(random, NAMES)}\\`;
  const parts: string[] = [];
  const count = random() < 0.6 ? 1 : 1 + Math.ceil(random() * 2);
  for (let i = 0; i < count; i++) parts.push(segment(random));
  let out = parts.join("/");
  if (random() < 0.2) out = `/${out}`;
  if (random() < 0.2) out = `${out}/`;
  if (random() < 0.25) out = `!${out}`;
  if (random() < 0.05) out = `\\#${out}`;
  if (random() < 0.05) out = `\\!${out}`;
  if (random() < 0.1) out = `${out}${" ".repeat(1 + Math.floor(random() * 2))}`;
  if (random() < 0.05) out = `${out}\\ `;
  return out;
}

/** A whole ignore file: several lines, LF or CRLF, sometimes a BOM or no final newline. */
function ignoreText(random: Random): string {
  const lines: string[] = [];
  const count = 1 + Math.floor(random() * 6);
  for (let i = 0; i < count; i++) lines.push(line(random));
  const eol = random() < 0.2 ? "\r\n" : "\n";
  let text = lines.join(eol);
  if (random() < 0.7) text += eol;
  if (random() < 0.1) text = `\uFEFF${text}`;
  return text;
}

/**
 * Sometimes: a `.git` folder at the root (never listed), a `.gitignore` that is a symlink to
 * another folder's (git does not follow it), or a folder named `.gitignore`.
 */
function addOddities(
  random: Random,
  entries: TreeEntry[],
  dirs: readonly string[],
  gitignores: ReadonlyMap<string, string>,
): void {
  const roll = random();
  const free = dirs.filter((d) => !gitignores.has(d));
  const dir = free.length > 0 ? pick(random, free) : null;
  const at = (name: string) => (dir ? `${dir}/${name}` : name);
  if (roll < 0.05) {
    entries.push({ path: ".git", kind: "dir" }, { path: ".git/HEAD", kind: "file" });
  } else if (roll < 0.1 && dir !== null) {
    const [other] = [...gitignores.keys()];
    const target = other ? `${other}/.gitignore`.replace(/^\//, "") : "nowhere";
    entries.push({ path: at(".gitignore"), kind: "link", target });
  } else if (roll < 0.13 && dir !== null) {
    entries.push(
      { path: at(".gitignore"), kind: "dir" },
      { path: at(".gitignore/x.js"), kind: "file" },
    );
  }
}

/** The case for one seed. */
export function generateCase(seed: number): WalkCase {
  const random = createRandom(seed);
  const entries: TreeEntry[] = [];
  makeTree(random, "", 0, entries);
  const dirs = ["", ...entries.filter((e) => e.kind === "dir").map((e) => e.path)];
  const gitignores = new Map<string, string>();
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) gitignores.set(pick(random, dirs), ignoreText(random));
  const excludesFile = random() < 0.5 ? ignoreText(random) : null;
  const infoExclude = random() < 0.7 ? ignoreText(random) : "";
  addOddities(random, entries, dirs, gitignores);
  return {
    seed,
    entries,
    gitignores,
    excludesFile,
    infoExclude,
  };
}
