import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { type ChildEnvironment, type ChildFolder, signalGroup, spawnChild } from "@z-engine/host";

/** How the configured decision sidecar starts: `[decisions] sidecar_command`, `sidecar_args`, `model`. */
export interface SidecarLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly model?: string;
}

/** One answer of the sidecar process: the decision model's reply text, or why it has none. */
export type SidecarReply = { readonly text: string } | { readonly error: string };

/** The longest line the engine reads from a sidecar (a longer one is a protocol error). */
const MAX_LINE = 256 * 1024;

/**
 * One sidecar program, speaking the sidecar protocol: JSON lines on stdin and stdout.
 * The engine writes `{"id": n, "model": m?, "instructions": s, "question": s}` per question
 * and `{"id": n, "cancel": true}` when it stops waiting; the program answers each question
 * with one line `{"id": n, "text": "<the decision model's reply>"}` (the reply is then parsed
 * as the fast model's is: its first JSON object, checked by the use's schema) or
 * `{"id": n, "error": "<why>"}`. Answers may come in any order; lines that are not JSON, or
 * name no pending id, are ignored. stderr is drained and dropped.
 */
export class SidecarProcess {
  private child: ChildProcessWithoutNullStreams | undefined;
  private nextId = 1;
  private buffer = "";
  private readonly pending = new Map<number, (reply: SidecarReply) => void>();
  private exited: string | undefined;

  constructor(
    private readonly launch: SidecarLaunch,
    private readonly where: { readonly folder: ChildFolder; readonly env: ChildEnvironment },
    private readonly onProblem: (message: string) => void,
  ) {}

  /** Whether the program has started and not exited. */
  get running(): boolean {
    return this.child !== undefined && this.exited === undefined;
  }

  /** The process id while it runs (tests). */
  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  private start(): ChildProcessWithoutNullStreams | undefined {
    if (this.child && this.exited === undefined) return this.child;
    this.exited = undefined;
    this.buffer = "";
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawnChild({
        program: this.launch.command,
        args: this.launch.args,
        folder: this.where.folder,
        env: this.where.env,
      });
    } catch (error) {
      this.onProblem(`the decision sidecar could not start: ${String(error)}`);
      return undefined;
    }
    this.child = child;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => this.read(chunk));
    child.stderr.on("data", () => {});
    child.stdin.on("error", () => {});
    child.on("error", (error) => this.ended(child, `could not start: ${error.message}`));
    child.on("exit", (code, signal) => this.ended(child, `exited (${signal ?? code})`));
    return child;
  }

  private ended(child: ChildProcessWithoutNullStreams, why: string): void {
    if (this.child !== child || this.exited !== undefined) return;
    this.exited = why;
    for (const answer of this.pending.values()) answer({ error: why });
    this.pending.clear();
    this.onProblem(`the decision sidecar \`${this.launch.command}\` ${why}`);
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    if (this.buffer.length > MAX_LINE && !this.buffer.includes("\n")) this.buffer = "";
    let newline = this.buffer.indexOf("\n");
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      this.answer(line);
      newline = this.buffer.indexOf("\n");
    }
  }

  private answer(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const { id, text, error } = value as { id?: unknown; text?: unknown; error?: unknown };
    const answer = typeof id === "number" ? this.pending.get(id) : undefined;
    if (!answer) return;
    this.pending.delete(id as number);
    if (typeof text === "string") answer({ text });
    else answer({ error: typeof error === "string" ? error : "no text in the answer" });
  }

  /**
   * Asks one question; resolves with the reply, or an error reply when the program cannot
   * start, exits, or `signal` aborts (a cancel line is sent). Never rejects.
   */
  ask(instructions: string, question: string, signal: AbortSignal): Promise<SidecarReply> {
    if (signal.aborted) return Promise.resolve({ error: "aborted" });
    const child = this.start();
    if (!child) return Promise.resolve({ error: "not started" });
    const id = this.nextId++;
    return new Promise((resolve) => {
      const onAbort = () => {
        this.pending.delete(id);
        this.write(child, { id, cancel: true });
        resolve({ error: "aborted" });
      };
      this.pending.set(id, (reply) => {
        signal.removeEventListener("abort", onAbort);
        resolve(reply);
      });
      signal.addEventListener("abort", onAbort, { once: true });
      const model = this.launch.model;
      this.write(child, { id, ...(model ? { model } : {}), instructions, question });
    });
  }

  private write(child: ChildProcessWithoutNullStreams, message: object): void {
    if (this.child === child && this.exited === undefined && child.stdin.writable)
      child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Stops the program (its whole process group) and resolves once it has exited. Never rejects. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || this.exited !== undefined) return;
    const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    this.exited = "stopped";
    for (const answer of this.pending.values()) answer({ error: "stopped" });
    this.pending.clear();
    child.stdin.end();
    signalGroup(child.pid, "SIGTERM");
    const timer = setTimeout(() => signalGroup(child.pid, "SIGKILL"), 2_000);
    timer.unref();
    await gone;
    clearTimeout(timer);
  }
}
