import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ChildSpawnRequest, ChildSpawner, SpawnedChild } from "../child-spawner.js";

type StdioModule = typeof import("@modelcontextprotocol/sdk/shared/stdio.js");

/** How long a server has to exit after its stdin closes, then after SIGTERM, before SIGKILL. */
export const STDIO_CLOSE_GRACE_MS = 2_000;

/** How long stdout is read after the server exited (its last messages). */
const DRAIN_MS = 250;

const waitFor = (promise: Promise<unknown>, ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * The MCP stdio transport over a child the caller's spawner starts (in its own process
 * group): newline-delimited JSON-RPC on stdin and stdout, stderr kept for the caller. Closing
 * ends stdin, gives the server {@link STDIO_CLOSE_GRACE_MS} to exit, then SIGTERM and SIGKILL
 * to the whole group; when the server exits on its own, what it left in its group is killed
 * too, so nothing it started outlives it (a program that leaves the group, `setsid`, does).
 */
export class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private spawned: SpawnedChild | undefined;
  private exited: Promise<void> = Promise.resolve();
  private buffer: InstanceType<StdioModule["ReadBuffer"]> | undefined;

  constructor(
    private readonly spawn: ChildSpawner,
    private readonly request: ChildSpawnRequest,
    private readonly onStderr: (chunk: Buffer) => void,
    private readonly stdio: StdioModule,
  ) {}

  /** The leader's process id once started, else null. */
  get pid(): number | null {
    return this.spawned?.process.pid ?? null;
  }

  async start(): Promise<void> {
    if (this.spawned) throw new Error("ChildStdioTransport already started");
    const spawned = this.spawn(this.request);
    this.spawned = spawned;
    const child = spawned.process;
    const buffer = new this.stdio.ReadBuffer();
    this.buffer = buffer;
    child.once("exit", () => {
      // Whatever the server left in its group goes with it; a straggler outside the group
      // that holds stdout open is not waited for.
      spawned.signalGroup("SIGKILL");
      const timer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, DRAIN_MS);
      timer.unref();
    });
    this.exited = new Promise((resolve) =>
      child.once("close", () => {
        resolve();
        this.onclose?.();
      }),
    );
    child.stdin.on("error", (error) => this.onerror?.(error));
    child.stdout.on("error", (error) => this.onerror?.(error));
    child.stderr.on("data", this.onStderr);
    child.stdout.on("data", (chunk: Buffer) => {
      buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = buffer.readMessage();
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.spawned?.process.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error("Not connected"));
    const json = this.stdio.serializeMessage(message);
    return new Promise((resolve) => {
      if (stdin.write(json)) resolve();
      else stdin.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    const spawned = this.spawned;
    if (!spawned) return;
    const child = spawned.process;
    if (child.pid === undefined) return; // it never started
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.stdin.end();
      } catch {
        // Already closed.
      }
      await waitFor(this.exited, STDIO_CLOSE_GRACE_MS);
      if (child.exitCode === null && child.signalCode === null) {
        spawned.signalGroup("SIGTERM");
        await waitFor(this.exited, STDIO_CLOSE_GRACE_MS);
      }
    }
    // The leader is gone (or stubborn): nothing of its group stays.
    spawned.signalGroup("SIGKILL");
    await waitFor(this.exited, STDIO_CLOSE_GRACE_MS);
    child.stdout.destroy();
    child.stderr.destroy();
    this.buffer?.clear();
  }
}
