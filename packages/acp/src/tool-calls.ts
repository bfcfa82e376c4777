import type {
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from "@agentclientprotocol/sdk";
import type { ToolDisplay } from "@z-engine/protocol";

const KINDS: Readonly<Record<string, ToolKind>> = {
  Read: "read",
  LSP: "read",
  ReadMcpResource: "read",
  Edit: "edit",
  MultiEdit: "edit",
  Write: "edit",
  ApplyAgentChanges: "edit",
  Bash: "execute",
  Verify: "execute",
  JobOutput: "execute",
  JobKill: "execute",
  Grep: "search",
  Glob: "search",
  ListMcpResources: "search",
  WebFetch: "fetch",
  WebSearch: "fetch",
  TodoWrite: "think",
  Agent: "think",
  Task: "think",
  ExitPlanMode: "switch_mode",
};

/** ACP's kind of a tool by its name (`other` for MCP tools and the rest). */
export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? "other";
}

type Input = Readonly<Record<string, unknown>>;

function asInput(input: unknown): Input {
  return typeof input === "object" && input !== null ? (input as Input) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A short title before the engine's own arrives (with toolStarted): the tool and its main argument. */
export function provisionalTitle(name: string, raw: unknown): string {
  const input = asInput(raw);
  const subject =
    text(input.file_path) ??
    text(input.command) ??
    text(input.pattern) ??
    text(input.url) ??
    text(input.query) ??
    text(input.description);
  return subject ? `${name} ${subject.split("\n")[0]}` : name;
}

/** The files a call is about (ACP's "follow along"): file_path (with Read's offset), path. */
export function toolLocations(raw: unknown): ToolCallLocation[] {
  const input = asInput(raw);
  const path = text(input.file_path) ?? text(input.notebook_path) ?? text(input.path);
  if (!path?.startsWith("/")) return [];
  const offset = typeof input.offset === "number" ? input.offset : undefined;
  return [{ path, ...(offset ? { line: offset } : {}) }];
}

/**
 * Diffs of a file-changing call from its input, as ACP shows them: Edit's old and new
 * strings, each of MultiEdit's edits, Write's whole content (no old text: it replaces the file).
 */
export function inputDiffs(name: string, raw: unknown): ToolCallContent[] {
  const input = asInput(raw);
  const path = text(input.file_path);
  if (!path) return [];
  if (name === "Write" && typeof input.content === "string")
    return [{ type: "diff", path, oldText: null, newText: input.content }];
  const edits =
    name === "Edit"
      ? [input]
      : name === "MultiEdit" && Array.isArray(input.edits)
        ? input.edits
        : [];
  return edits.flatMap((e: unknown) => {
    const edit = asInput(e);
    return typeof edit.old_string === "string" && typeof edit.new_string === "string"
      ? [{ type: "diff" as const, path, oldText: edit.old_string, newText: edit.new_string }]
      : [];
  });
}

function textContent(value: string): ToolCallContent {
  return { type: "content", content: { type: "text", text: value } };
}

/**
 * What a finished call shows, from its display: text as text, a command with its output (when
 * it did not run in a client terminal, which shows itself), a file list; diffs and todos are
 * shown otherwise (the input's diffs, the plan). Undefined: keep what the call showed.
 */
export function displayContent(
  display: ToolDisplay | undefined,
  inTerminal: boolean,
): ToolCallContent[] | undefined {
  if (!display) return undefined;
  switch (display.kind) {
    case "text":
      return [textContent(display.text)];
    case "command":
      if (inTerminal || display.output === undefined) return undefined;
      return [textContent(`\`\`\`console\n$ ${display.command}\n${display.output}\n\`\`\``)];
    case "files":
      return [
        textContent(display.paths.join("\n") + (display.truncated ? "\n(more not shown)" : "")),
      ];
    default:
      return undefined;
  }
}

/** ACP's status of a finished call: `completed`, or `failed` for an error, a denial or a cancel. */
export function finishedStatus(status: "ok" | "error" | "denied" | "cancelled"): ToolCallStatus {
  return status === "ok" ? "completed" : "failed";
}

/** The line a call's first diff hunk starts at in the new file (`@@ -a,b +c,d @@`). */
export function diffLine(display: ToolDisplay | undefined): number | undefined {
  if (display?.kind !== "diff") return undefined;
  const match = /^@@ -\d+(?:,\d+)? \+(\d+)/m.exec(display.diff);
  return match ? Number(match[1]) : undefined;
}
