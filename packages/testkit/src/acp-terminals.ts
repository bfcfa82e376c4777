import { type ChildProcess, spawn } from "node:child_process";
import type {
  CreateTerminalRequest,
  TerminalExitStatus,
  TerminalOutputResponse,
} from "@agentclientprotocol/sdk";

/** One terminal the fake editor ran: its request, output and how it ended. */
export interface TestTerminal {
  readonly id: string;
  readonly request: CreateTerminalRequest;
  output: string;
  truncated: boolean;
  exit: TerminalExitStatus | undefined;
  released: boolean;
  killed: boolean;
}

/**
 * The terminals of a fake editor, as real processes: `terminal/create` spawns the command
 * (the request's program and arguments, in its folder, with PATH and HOME plus its variables),
 * output keeps at most `outputByteLimit` bytes (the start dropped), `wait_for_exit` waits,
 * `kill` sends SIGKILL to its process group, `release` kills and forgets.
 */
export class TestTerminals {
  readonly all: TestTerminal[] = [];
  private readonly children = new Map<string, ChildProcess>();
  private readonly exits = new Map<string, Promise<TerminalExitStatus>>();

  create(request: CreateTerminalRequest): { terminalId: string } {
    const id = `term-${this.all.length + 1}`;
    const terminal: TestTerminal = {
      id,
      request,
      output: "",
      truncated: false,
      exit: undefined,
      released: false,
      killed: false,
    };
    this.all.push(terminal);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
    };
    for (const v of request.env ?? []) env[v.name] = v.value;
    const child = spawn(request.command, request.args ?? [], {
      cwd: request.cwd ?? process.cwd(),
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const limit = request.outputByteLimit ?? Number.POSITIVE_INFINITY;
    const append = (chunk: Buffer) => {
      terminal.output += chunk.toString("utf8");
      if (Buffer.byteLength(terminal.output) > limit) {
        terminal.output = terminal.output.slice(-limit);
        terminal.truncated = true;
      }
    };
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
    this.children.set(id, child);
    this.exits.set(
      id,
      new Promise((resolve) => {
        child.on("error", (error) => {
          terminal.output += String(error);
          terminal.exit = { exitCode: 127, signal: null };
          resolve(terminal.exit);
        });
        child.on("close", (code, signal) => {
          terminal.exit = { exitCode: code, signal: signal ?? null };
          resolve(terminal.exit);
        });
      }),
    );
    return { terminalId: id };
  }

  output(terminalId: string): TerminalOutputResponse {
    const t = this.get(terminalId);
    return { output: t.output, truncated: t.truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
  }

  async waitForExit(terminalId: string): Promise<TerminalExitStatus> {
    this.get(terminalId);
    return (await this.exits.get(terminalId)) as TerminalExitStatus;
  }

  kill(terminalId: string): void {
    const t = this.get(terminalId);
    t.killed = true;
    this.signal(terminalId);
  }

  release(terminalId: string): void {
    const t = this.get(terminalId);
    t.released = true;
    this.signal(terminalId);
    this.children.delete(terminalId);
  }

  /** Kills whatever still runs (the test's end). */
  dispose(): void {
    for (const id of this.children.keys()) this.signal(id);
    this.children.clear();
  }

  private signal(terminalId: string): void {
    const child = this.children.get(terminalId);
    if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
      return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }

  private get(terminalId: string): TestTerminal {
    const t = this.all.find((x) => x.id === terminalId);
    if (!t || t.released) throw new Error(`no terminal ${terminalId}`);
    return t;
  }
}
