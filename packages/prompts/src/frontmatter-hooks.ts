/**
 * `hooks:` in an agent's or skill's frontmatter, as Claude Code writes it: a YAML map of
 * events, each a list of `{ matcher, hooks: [{ type: command, command, timeout }] }`. The flat
 * frontmatter reader keeps only scalars and lists, so this reads the nested block itself: a
 * YAML subset of block maps and lists (`- ` items, `key: value`, quoted scalars, `#` comments).
 */

/** One hook a definition's frontmatter declares. */
export interface FrontmatterHook {
  /** Claude Code's event name, as written (`PreToolUse`, `Stop`, ...). */
  readonly event: string;
  /** The tool-name pattern; empty matches every tool. */
  readonly matcher: string;
  readonly command: string;
  /** `timeout` in seconds, when given. */
  readonly timeoutSecs?: number;
}

/** The hooks read, and one line for each that could not be used. */
export interface FrontmatterHooks {
  readonly hooks: readonly FrontmatterHook[];
  readonly problems: readonly string[];
}

type Node = string | Node[] | { [key: string]: Node };
interface Line {
  readonly indent: number;
  readonly text: string;
}

function scalar(raw: string): string {
  const value = raw.replace(/\s+#.*$/, "").trim();
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? (quoted[2] as string) : value;
}

function block(lines: Line[], at: { i: number }, indent: number): Node {
  const first = lines[at.i];
  if (first === undefined) return "";
  if (/^-(\s|$)/.test(first.text)) {
    const items: Node[] = [];
    while (lines[at.i]?.indent === indent && /^-(\s|$)/.test(lines[at.i]?.text ?? "")) {
      const rest = (lines[at.i]?.text ?? "").replace(/^-\s*/, "");
      const offset = (lines[at.i]?.text.length ?? 0) - rest.length;
      if (rest === "") {
        at.i++;
        items.push(block(lines, at, lines[at.i]?.indent ?? indent + 2));
      } else {
        // `- key: value` opens a map whose keys sit at the item's text column.
        lines[at.i] = { indent: indent + offset, text: rest };
        items.push(
          /^[^:]+:(\s|$)/.test(rest) ? block(lines, at, indent + offset) : scalarItem(rest, at),
        );
      }
    }
    return items;
  }
  const map: Record<string, Node> = {};
  while (lines[at.i]?.indent === indent && !/^-(\s|$)/.test(lines[at.i]?.text ?? "")) {
    const m = /^([^:]+):(?:\s+(.*))?$/.exec(lines[at.i]?.text ?? "");
    at.i++;
    if (!m) continue;
    const key = scalar(m[1] as string);
    const next = lines[at.i];
    if (m[2] !== undefined && m[2].trim() !== "") map[key] = scalar(m[2]);
    else if (
      next &&
      (next.indent > indent || (next.indent === indent && /^-(\s|$)/.test(next.text)))
    )
      map[key] = block(lines, at, next.indent);
    else map[key] = "";
  }
  return map;
}

function scalarItem(rest: string, at: { i: number }): string {
  at.i++;
  return scalar(rest);
}

function isMap(node: Node | undefined): node is Record<string, Node> {
  return typeof node === "object" && node !== null && !Array.isArray(node);
}

function hooksOf(event: string, groups: Node, problems: string[]): FrontmatterHook[] {
  if (!Array.isArray(groups)) {
    problems.push(`hooks.${event}: expected a list`);
    return [];
  }
  const out: FrontmatterHook[] = [];
  for (const group of groups) {
    if (!isMap(group) || !Array.isArray(group.hooks)) {
      problems.push(`hooks.${event}: expected { matcher, hooks: [...] }`);
      continue;
    }
    const matcher = typeof group.matcher === "string" ? group.matcher : "";
    for (const hook of group.hooks) {
      const type = isMap(hook) ? hook.type : undefined;
      if (type !== undefined && type !== "command") {
        problems.push(`hooks.${event}: hook type \`${String(type)}\` is not run by zeng`);
      } else if (!isMap(hook) || typeof hook.command !== "string" || hook.command === "") {
        problems.push(`hooks.${event}: a hook without a \`command\` is not run`);
      } else {
        const timeout = Number(hook.timeout);
        out.push({
          event,
          matcher,
          command: hook.command,
          ...(Number.isFinite(timeout) && timeout > 0 ? { timeoutSecs: timeout } : {}),
        });
      }
    }
  }
  return out;
}

/**
 * The `hooks:` block of a markdown file's frontmatter (none when it has no such key). Never
 * throws: a part that is not of Claude Code's shape is a problem line and is skipped.
 */
export function frontmatterHooks(text: string): FrontmatterHooks {
  const all = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  const open = all.findIndex((l) => l.trim() !== "");
  if (!/^---\s*$/.test(all[open] ?? "")) return { hooks: [], problems: [] };
  const close = all.findIndex((l, i) => i > open && /^---\s*$/.test(l));
  const front = all.slice(open + 1, close < 0 ? all.length : close);
  const start = front.findIndex((l) => /^hooks:\s*(#.*)?$/.test(l));
  if (start < 0) return { hooks: [], problems: [] };
  const lines: Line[] = [];
  for (const raw of front.slice(start + 1)) {
    if (raw.trim() === "" || /^\s*#/.test(raw)) continue;
    const indent = raw.length - raw.trimStart().length;
    if (indent === 0) break;
    lines.push({ indent, text: raw.trim() });
  }
  const problems: string[] = [];
  const tree = lines.length > 0 ? block(lines, { i: 0 }, lines[0]?.indent ?? 0) : "";
  if (!isMap(tree)) return { hooks: [], problems: ["hooks: expected a map of events"] };
  const hooks = Object.entries(tree).flatMap(([event, groups]) => hooksOf(event, groups, problems));
  return { hooks, problems };
}
