import { type ChildProcess, spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { Readable, Writable } from "node:stream";
import {
  type AgentApp,
  type ClientConnection,
  type ClientContext,
  client,
  ndJsonStream,
  type RequestPermissionRequest,
  type SessionNotification,
  type SessionUpdate,
  type Stream,
} from "@agentclientprotocol/sdk";
import { TestTerminals } from "./acp-terminals.js";

/** An answer to a permission request: an option id, or `cancelled`. */
export type PermissionAnswer = string | "cancelled";

/** A permission request the test answers. */
export interface PendingPermission {
  readonly request: RequestPermissionRequest;
  /** True once the agent cancelled it (`$/cancel_request`). */
  readonly cancelled: boolean;
  answer(answer: PermissionAnswer): void;
}

/**
 * How the fake editor behaves. It answers fs and terminal requests whatever it offered: what
 * the agent sees offered is the `clientCapabilities` the test sends in `initialize` (the
 * SDK's client sends nothing of its own).
 */
export interface AcpTestClientOptions {
  /** Answers each permission request at once; without it they wait for `nextPermission()`. */
  readonly onPermission?: (request: RequestPermissionRequest) => PermissionAnswer;
  /** Its writes reach the disk too (a saved buffer); default: they stay in `buffers`. */
  readonly saveWrites?: boolean;
}

/** An editor for tests: the ACP SDK's own client side, with buffers and real terminals. */
export interface AcpTestClient {
  /** Calls agent methods (`agent.request("session/new", ...)`). */
  readonly agent: ClientContext;
  readonly connection: ClientConnection;
  /** Every `session/update`, in arrival order. */
  readonly notifications: SessionNotification[];
  readonly permissions: PendingPermission[];
  /** Open buffers by path: `fs/read_text_file` answers from here, else from disk. */
  readonly buffers: Map<string, string>;
  readonly reads: string[];
  readonly writes: Array<{ readonly path: string; readonly content: string }>;
  readonly terminals: TestTerminals;
  /** The updates of one session, in order. */
  updatesOf(sessionId: string): SessionUpdate[];
  /** Resolves with the first update (from `from` on) for which `test` holds. */
  waitForUpdate(
    test: (update: SessionUpdate) => boolean,
    options?: { from?: number; timeoutMs?: number },
  ): Promise<SessionUpdate>;
  /** Resolves with the next permission request not yet handed out. */
  nextPermission(timeoutMs?: number): Promise<PendingPermission>;
  close(): Promise<void>;
}

/** Wakes every test waiting for something new; a wait past its time rejects naming it. */
function waiter() {
  const wakers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...wakers]) wake();
  };
  const wait = (timeoutMs: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(() => {
        wakers.delete(wake);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      wakers.add(wake);
    });
  return { wakeAll, wait };
}

/** An answer as ACP's permission outcome. */
function outcomeOf(answer: PermissionAnswer) {
  return answer === "cancelled"
    ? { outcome: { outcome: "cancelled" as const } }
    : { outcome: { outcome: "selected" as const, optionId: answer } };
}

/** Answers a permission request by `onPermission`, else queues it for the test (a cancel answers it). */
function permissionHandler(
  options: AcpTestClientOptions,
  permissions: PendingPermission[],
  changed: ReturnType<typeof waiter>,
) {
  return ({ params, signal }: { params: RequestPermissionRequest; signal: AbortSignal }) => {
    if (options.onPermission) return outcomeOf(options.onPermission(params));
    return new Promise<ReturnType<typeof outcomeOf>>((resolve) => {
      const pending = {
        request: params,
        cancelled: false,
        answer: (answer: PermissionAnswer) => resolve(outcomeOf(answer)),
      };
      signal.addEventListener("abort", () => {
        pending.cancelled = true;
        resolve({ outcome: { outcome: "cancelled" } });
        changed.wakeAll();
      });
      permissions.push(pending);
      changed.wakeAll();
    });
  };
}

/**
 * Connects a fake editor to an agent: an `AgentApp` in process, or a `Stream` (a child over
 * stdio, {@link spawnAcpAgent}). Its fs answers from `buffers`, its terminals are real
 * processes, and its permission requests wait for the test (or `onPermission`).
 */
export function connectAcpTestClient(
  target: AgentApp | Stream,
  options: AcpTestClientOptions = {},
): AcpTestClient {
  const notifications: SessionNotification[] = [];
  const permissions: PendingPermission[] = [];
  const buffers = new Map<string, string>();
  const reads: string[] = [];
  const writes: Array<{ path: string; content: string }> = [];
  const terminals = new TestTerminals();
  const changed = waiter();
  let handedOut = 0;
  const app = client({ name: "zeng-test-editor" })
    .onNotification("session/update", ({ params }) => {
      notifications.push(params);
      changed.wakeAll();
    })
    .onRequest("session/request_permission", permissionHandler(options, permissions, changed))
    .onRequest("fs/read_text_file", async ({ params }) => {
      reads.push(params.path);
      return { content: buffers.get(params.path) ?? (await readFile(params.path, "utf8")) };
    })
    .onRequest("fs/write_text_file", async ({ params }) => {
      writes.push({ path: params.path, content: params.content });
      buffers.set(params.path, params.content);
      if (options.saveWrites) await writeFile(params.path, params.content);
      return {};
    })
    .onRequest("terminal/create", ({ params }) => terminals.create(params))
    .onRequest("terminal/output", ({ params }) => terminals.output(params.terminalId))
    .onRequest("terminal/wait_for_exit", ({ params }) => terminals.waitForExit(params.terminalId))
    .onRequest("terminal/kill", ({ params }) => {
      terminals.kill(params.terminalId);
      return {};
    })
    .onRequest("terminal/release", ({ params }) => {
      terminals.release(params.terminalId);
      return {};
    });
  const connection = "writable" in target ? app.connect(target) : app.connect(target as AgentApp);
  const updatesOf = (sessionId: string) =>
    notifications.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  return {
    agent: connection.agent,
    connection,
    notifications,
    permissions,
    buffers,
    reads,
    writes,
    terminals,
    updatesOf,
    waitForUpdate: async (test, { from = 0, timeoutMs = 15_000 } = {}) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = notifications.slice(from).find((n) => test(n.update));
        if (found) return found.update;
        await changed.wait(Math.max(1, deadline - Date.now()), "a session update");
      }
    },
    nextPermission: async (timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (permissions.length <= handedOut)
        await changed.wait(Math.max(1, deadline - Date.now()), "a permission request");
      return permissions[handedOut++] as PendingPermission;
    },
    close: async () => {
      terminals.dispose();
      connection.close();
      await connection.closed.catch(() => {});
    },
  };
}

/** An agent started as a child process, and the ndjson stream over its stdio. */
export interface SpawnedAgent {
  readonly child: ChildProcess;
  readonly stream: Stream;
  /** What it wrote on stderr so far. */
  stderr(): string;
}

/** Starts an ACP agent (`command args`) with stdio pipes, as an editor does. */
export function spawnAcpAgent(
  command: string,
  args: readonly string[],
  options: { readonly env: Readonly<Record<string, string>>; readonly cwd: string },
): SpawnedAgent {
  const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: "pipe" });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  return { child, stream, stderr: () => stderr };
}
