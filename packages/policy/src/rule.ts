/**
 * The permission rule grammar, in Claude Code's documented forms: `Tool`, `Tool(specifier)`,
 * `Bash(cmd)`, `Bash(prefix:*)`, `Bash(with * wildcards)`, `Read|Edit|Write(gitignore glob)`,
 * `WebFetch(domain:host)`, `Task(agentType)`, `Skill(name)`, `mcp__server` and `mcp__server__tool`.
 */

/** The tools whose rules take a path glob. */
export type PathRuleTool = "Read" | "Edit" | "Write";

/**
 * Where a path rule's glob starts: `//path` absolute, `~/path` the home folder, `/path` the
 * folder of the settings file's project, `path` or `./path` the project.
 */
export type PathAnchor = "absolute" | "home" | "settings" | "project";

/** A parsed permission rule (not yet tied to the settings file it came from). */
export type Rule =
  /** A bare tool name: every action of its family (Bash, Read, Edit, ...) or every call of that tool. */
  | { readonly kind: "tool"; readonly text: string; readonly tool: string }
  /** `Bash(...)`: `words` are the rule's words; `prefix` for `:*`; `wildcard` when it has `*`. */
  | {
      readonly kind: "command";
      readonly text: string;
      readonly pattern: string;
      readonly match: "exact" | "prefix" | "wildcard";
      readonly words: readonly string[];
    }
  /** `Read(...)`, `Edit(...)`, `Write(...)`: a gitignore-style glob from its anchor. */
  | {
      readonly kind: "path";
      readonly text: string;
      readonly tool: PathRuleTool;
      readonly anchor: PathAnchor;
      /** The glob after its anchor, without a leading `/` or `./`. */
      readonly pattern: string;
    }
  /** `WebFetch(domain:host)`; `host` is lower-case and may start with `*.`. */
  | { readonly kind: "domain"; readonly text: string; readonly domain: string }
  /** `mcp__server` (every tool), `mcp__server__*` (same) or `mcp__server__tool`. */
  | { readonly kind: "mcp"; readonly text: string; readonly server: string; readonly tool?: string }
  /** `Task(agentType)` or `Agent(agentType)`. */
  | { readonly kind: "agent"; readonly text: string; readonly agentType: string }
  /** `Skill(name)`: one skill loaded by the Skill tool. */
  | { readonly kind: "skill"; readonly text: string; readonly skill: string };

/** The result of {@link parseRule}: a rule, or a settings error to report (the rule is skipped). */
export type RuleParseResult = { ok: true; rule: Rule } | { ok: false; error: string };

/** Tool names known to the engine, to catch case typos such as `bash(ls)`. */
const KNOWN_TOOLS = [
  "Bash",
  "Read",
  "Edit",
  "MultiEdit",
  "Write",
  "NotebookEdit",
  "WebFetch",
  "WebSearch",
  "Grep",
  "Glob",
  "LS",
  "Task",
  "Agent",
  "TodoWrite",
  "AskUserQuestion",
  "ExitPlanMode",
  "BashOutput",
  "KillShell",
  "Verify",
  "LSP",
  "Skill",
  "SlashCommand",
];
const PATH_TOOLS = new Set(["Read", "Edit", "Write", "MultiEdit", "NotebookEdit"]);
const KNOWN_BY_LOWER = new Map(KNOWN_TOOLS.map((t) => [t.toLowerCase(), t]));
const TOOL_NAME = /^[A-Z][A-Za-z0-9_]*$/;
const MCP_NAME = /^mcp__([A-Za-z0-9_-]+?)(?:__([A-Za-z0-9_*-]+))?$/;
const HOST = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/**
 * Parses one rule's text. Never throws: text in no known form (an unknown tool's specifier,
 * a bad glob, an empty specifier, a lower-case tool name) gives `{ ok: false, error }`.
 * Surrounding whitespace is ignored; the returned rule's `text` is the trimmed text.
 */
export function parseRule(text: string): RuleParseResult {
  const t = text.trim();
  if (t === "") return fail("an empty rule");
  if (t.startsWith("mcp__")) return parseMcpRule(t);
  const open = t.indexOf("(");
  const name = open < 0 ? t : t.slice(0, open);
  const nameError = checkToolName(name, t);
  if (nameError) return fail(nameError);
  if (open < 0) return { ok: true, rule: { kind: "tool", text: t, tool: name } };
  if (!t.endsWith(")")) return fail(`"${t}": a specifier must end with ")"`);
  const spec = t.slice(open + 1, -1).trim();
  if (spec === "") return fail(`"${t}": an empty specifier; write "${name}" to match every use`);
  // `Bash(*)` means every command; `Read(*)` or `Edit(**)` stay path globs inside the project.
  if (spec === "*" && !PATH_TOOLS.has(name))
    return { ok: true, rule: { kind: "tool", text: t, tool: name } };
  return parseSpecifier(name, spec, t);
}

function parseSpecifier(name: string, spec: string, t: string): RuleParseResult {
  switch (name) {
    case "Bash":
      return parseCommandRule(spec, t);
    case "Read":
    case "Edit":
    case "Write":
      return parsePathRule(name, spec, t);
    case "MultiEdit":
    case "NotebookEdit":
      return parsePathRule("Edit", spec, t);
    case "WebFetch":
      return parseDomainRule(spec, t);
    case "Task":
    case "Agent":
      if (!/^[A-Za-z0-9_:.-]+$/.test(spec)) return fail(`"${t}": not an agent type`);
      return { ok: true, rule: { kind: "agent", text: t, agentType: spec } };
    case "Skill":
      if (!/^[A-Za-z0-9_:.-]+$/.test(spec)) return fail(`"${t}": not a skill name`);
      return { ok: true, rule: { kind: "skill", text: t, skill: spec } };
    default:
      return fail(`"${t}": ${name} rules take no specifier; write "${name}"`);
  }
}

function checkToolName(name: string, t: string): string | undefined {
  const known = KNOWN_BY_LOWER.get(name.toLowerCase());
  if (TOOL_NAME.test(name) && (known === undefined || known === name)) return undefined;
  if (known) return `"${t}": tool names are case-sensitive; did you mean "${known}"?`;
  return `"${t}": not a rule (expected Tool, Tool(specifier) or mcp__server[__tool])`;
}

function parseMcpRule(t: string): RuleParseResult {
  const m = MCP_NAME.exec(t);
  if (!m?.[1]) return fail(`"${t}": not an MCP rule (expected mcp__server or mcp__server__tool)`);
  const tool = m[2];
  if (tool === undefined || tool === "*") {
    return { ok: true, rule: { kind: "mcp", text: t, server: m[1] } };
  }
  if (tool.includes("*")) return fail(`"${t}": MCP rules allow "*" only as the whole tool name`);
  return { ok: true, rule: { kind: "mcp", text: t, server: m[1], tool } };
}

function parseCommandRule(spec: string, t: string): RuleParseResult {
  const prefix = spec.endsWith(":*");
  const body = prefix ? spec.slice(0, -2).trim() : spec;
  if (body === "") return fail(`"${t}": an empty command prefix`);
  if (prefix && body.includes("*")) {
    return fail(`"${t}": ":*" is a prefix rule; it cannot also hold "*" wildcards`);
  }
  if (/[;&|`\n]|\$\(/.test(body)) {
    return fail(`"${t}": a rule names one simple command; it cannot hold ; & | or substitutions`);
  }
  const words = splitWords(body);
  if (words === undefined) return fail(`"${t}": unbalanced quotes`);
  const match = prefix ? "prefix" : body.includes("*") ? "wildcard" : "exact";
  return { ok: true, rule: { kind: "command", text: t, pattern: body, match, words } };
}

/** Splits a rule's command into words, removing quotes; undefined on an unclosed quote. */
function splitWords(body: string): string[] | undefined {
  const words: string[] = [];
  let cur = "";
  let inWord = false;
  let quote: string | undefined;
  for (const ch of body) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(cur);
  return words;
}

function parsePathRule(tool: PathRuleTool, spec: string, t: string): RuleParseResult {
  let anchor: PathAnchor;
  let pattern: string;
  if (spec.startsWith("//")) [anchor, pattern] = ["absolute", spec.slice(2)];
  else if (spec === "~" || spec.startsWith("~/")) [anchor, pattern] = ["home", spec.slice(2)];
  else if (spec.startsWith("~")) return fail(`"${t}": only "~/" (your home) is supported`);
  else if (spec.startsWith("/")) [anchor, pattern] = ["settings", spec.slice(1)];
  else if (spec.startsWith("./")) [anchor, pattern] = ["project", spec.slice(2)];
  else [anchor, pattern] = ["project", spec];
  pattern = pattern.replace(/^\/+/, "");
  const segments = pattern.split("/");
  if (segments.some((s) => s === ".." || s === ".")) {
    return fail(`"${t}": "." and ".." are not allowed in a path rule; use "//" for absolute paths`);
  }
  if (pattern.includes("\0")) return fail(`"${t}": a NUL character`);
  if (/\[[^\]]*$/.test(pattern)) return fail(`"${t}": an unclosed "[" in the glob`);
  return { ok: true, rule: { kind: "path", text: t, tool, anchor, pattern } };
}

function parseDomainRule(spec: string, t: string): RuleParseResult {
  if (!spec.startsWith("domain:")) return fail(`"${t}": WebFetch rules take "domain:host"`);
  const domain = spec.slice("domain:".length).trim().toLowerCase().replace(/\.$/, "");
  if (!HOST.test(domain)) return fail(`"${t}": "${domain}" is not a host name`);
  return { ok: true, rule: { kind: "domain", text: t, domain } };
}

function fail(error: string): RuleParseResult {
  return { ok: false, error };
}
