import { isAbsolute, join, relative, resolve } from "node:path";
import type { ProjectFileReader } from "@z-engine/protocol";
import { substituteArguments } from "./arguments.js";

/** One file may add this much to a command's message. */
export const FILE_LIMIT_BYTES = 256 * 1024;
/** All of a command's `@path` files together may add this much. */
export const TOTAL_LIMIT_BYTES = 1024 * 1024;

/** What expansion may do, decided by the session (the gate) and done by its shell. */
export interface ExpandPorts {
  readonly projectRoot: string;
  readonly homeDir: string;
  /**
   * The door `@path` files are read through: it resolves each to its real path and admits it
   * only when a Read of it (real and as written) is allowed without asking.
   */
  readonly files: ProjectFileReader;
  /** Whether this `!` command line may run without asking. */
  canRun(command: string): boolean | Promise<boolean>;
  /** Runs a command line in the project root; its output (and exit code when not 0). */
  run(command: string): Promise<string>;
}

/** The expanded body and what could not be expanded (for notices). */
export interface Expanded {
  readonly text: string;
  readonly notes: readonly string[];
}

const FENCE = /^\s*(```|~~~)/;
const BANG = /!`([^`\n]+)`/g;
// `@path` after a start, a space or an opening bracket; an e-mail (`a@b.c`) has a word before it.
const AT_PATH = /(^|[\s([{])@((?:[\w.~/+-]|\\ )+)/g;

function displayPath(projectRoot: string, path: string): string {
  const rel = relative(projectRoot, path);
  return rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** Code spans of one line: their [start, end) ranges. */
function codeSpans(line: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const m of line.matchAll(/(`+)[^`]*?\1/g)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

class FileBudget {
  total = 0;
  readonly files: string[] = [];
  readonly seen = new Set<string>();
}

async function inlineFile(
  raw: string,
  ports: ExpandPorts,
  budget: FileBudget,
  notes: string[],
): Promise<boolean> {
  const written = raw.replace(/[.,;:!?)]+$/, "").replaceAll("\\ ", " ");
  if (written === "" || written.startsWith("agent-")) return false;
  const path = written.startsWith("~/")
    ? join(ports.homeDir, written.slice(2))
    : resolve(ports.projectRoot, written);
  const admitted = await ports.files.admit(path);
  // Not a file (a mention such as `@someone`, a folder, a FIFO): it stays as written.
  if (!admitted.ok && (admitted.reason === "missing" || admitted.reason === "notRegular"))
    return false;
  if (!admitted.ok) {
    const why =
      admitted.reason === "outside" || admitted.reason === "denied"
        ? `the permission rules do not allow reading it (${admitted.message})`
        : admitted.message;
    notes.push(`@${written} was not inlined: ${why}`);
    return false;
  }
  if (budget.seen.has(admitted.realPath)) return true;
  const size = admitted.size;
  if (size > FILE_LIMIT_BYTES || budget.total + size > TOTAL_LIMIT_BYTES) {
    const why = size > FILE_LIMIT_BYTES ? "it is over 256 KiB" : "the 1 MiB total is spent";
    notes.push(`@${written} was not inlined: ${why}`);
    return false;
  }
  const read = await ports.files.readText(path, { maxBytes: FILE_LIMIT_BYTES });
  if (!read.ok) {
    notes.push(`@${written} was not inlined: ${read.message}`);
    return false;
  }
  budget.seen.add(read.realPath);
  budget.total += Buffer.byteLength(read.text);
  budget.files.push(`<file path="${displayPath(ports.projectRoot, path)}">\n${read.text}\n</file>`);
  return true;
}

async function expandLine(
  line: string,
  ports: ExpandPorts,
  budget: FileBudget,
  notes: string[],
): Promise<string> {
  const spans = codeSpans(line);
  const inCode = (at: number) => spans.some(([s, e]) => at >= s && at < e);
  for (const m of line.matchAll(AT_PATH))
    if (!inCode(m.index + (m[1] ?? "").length))
      await inlineFile(m[2] as string, ports, budget, notes);
  let out = "";
  let last = 0;
  for (const m of line.matchAll(BANG)) {
    const command = (m[1] as string).trim();
    out += line.slice(last, m.index);
    last = m.index + m[0].length;
    if (!(await ports.canRun(command))) {
      notes.push(
        `!\`${command}\` did not run: neither the command's allowed-tools nor the session's rules allow it`,
      );
      out += m[0];
      continue;
    }
    out += (await ports.run(command)).trimEnd();
  }
  return out + line.slice(last);
}

/**
 * Expands a command template: arguments first (see arguments.ts), then, outside fenced code
 * blocks, `!\`cmd\`` (replaced by the command's output when `canRun` allows it, else left as
 * written with a note) and `@path` outside code spans (the file's text appended after the
 * body in a `<file path>` block when the door admits it: its real path, symlinks followed, and
 * the path as written both pass the Read rules; 256 KiB a file, 1 MiB in all).
 * Command outputs and inlined files are never expanded again (arguments are: the user typed
 * them, so `/explain @src/a.ts` inlines the file). An
 * `@name` that is not an existing file, such as `@agent-x` or an e-mail, stays as written.
 * Never rejects.
 */
export async function expandTemplate(
  template: string,
  args: string,
  ports: ExpandPorts,
): Promise<Expanded> {
  const notes: string[] = [];
  const budget = new FileBudget();
  const lines = substituteArguments(template, args).split("\n");
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const mark = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (mark === fence) fence = null;
      out.push(line);
    } else if (mark !== undefined) {
      fence = mark;
      out.push(line);
    } else out.push(await expandLine(line, ports, budget, notes));
  }
  const text = [out.join("\n"), ...budget.files].join("\n\n");
  return { text, notes };
}
