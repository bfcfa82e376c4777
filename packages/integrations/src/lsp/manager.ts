import { extname } from "node:path";
import type { ProjectFileReader } from "@z-engine/protocol";
import type { ChildSpawner } from "../child-spawner.js";
import { findServerBinary } from "./binary.js";
import { LspClient } from "./client.js";
import { DocumentSync } from "./documents.js";
import { LspError } from "./errors.js";
import {
  type ConfiguredLspServer,
  type LspServerSpec,
  lspServerSpecs,
  specsForFile,
} from "./specs.js";

/** The options of {@link LspManager}. */
export interface LspManagerOptions {
  /** The project root (real absolute path): servers run there. */
  readonly root: string;
  /** The environment whose PATH finds the servers. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Starts a server: the caller chose its folder (the project) and scrubbed environment. */
  readonly spawn: ChildSpawner;
  /**
   * How the files servers are sent and the lines quoted to the model are read: the engine's
   * project-files door (the Read rules, regular files, bounded reads). Nothing else is read.
   */
  readonly files: ProjectFileReader;
  /** `[lsp.servers]`: configured servers, tried before the built-ins. */
  readonly servers?: Readonly<Record<string, ConfiguredLspServer>>;
  /** Restarts allowed after crashes (default 3). */
  readonly maxRestarts?: number;
  /** Longest wait for a server's `initialize` (default 30 s). */
  readonly initializeTimeoutMs?: number;
}

/** A running server and the documents it has open. */
export interface LiveServer {
  readonly client: LspClient;
  readonly docs: DocumentSync;
}

type ServerState =
  | { readonly kind: "starting"; readonly ready: Promise<LiveServer> }
  | ({ readonly kind: "running" } & LiveServer)
  | { readonly kind: "failed"; readonly reason: string };

/** How one server stands, for status lines and tests. */
export interface LspServerStatus {
  readonly name: string;
  readonly state: "starting" | "running" | "failed";
  /** Why it failed (not installed, start failure, too many crashes). */
  readonly reason?: string;
  readonly restarts: number;
  readonly pid?: number;
  readonly busy?: boolean;
}

/** The server chosen for a file and its program. */
export interface Route {
  readonly spec: LspServerSpec;
  readonly binary: string;
}

/**
 * The language servers of one project: picks the server for a file (configured first, then
 * the built-ins, the first whose program is installed), starts it lazily, remembers a failed
 * start with its reason, restarts a crashed server on next use at most `maxRestarts` times,
 * and stops them all on {@link LspManager.stopAll}.
 */
export class LspManager {
  private specs: LspServerSpec[];
  private readonly states = new Map<string, ServerState>();
  private readonly restarts = new Map<string, number>();
  private readonly routes = new Map<string, Promise<Route | LspError>>();
  private stopped = false;

  constructor(private readonly options: LspManagerOptions) {
    this.specs = lspServerSpecs(options.servers ?? {});
  }

  /** The project root the servers run in. */
  get root(): string {
    return this.options.root;
  }

  /** The door files are read through. */
  get files(): ProjectFileReader {
    return this.options.files;
  }

  /**
   * The server for a file, by extension (cached per extension, so a missing program is
   * remembered). An {@link LspError} `notInstalled` when none serves or none is installed.
   */
  route(path: string): Promise<Route | LspError> {
    const ext = extname(path).toLowerCase();
    let found = this.routes.get(ext);
    if (!found) {
      found = this.findRoute(path, ext);
      this.routes.set(ext, found);
    }
    return found;
  }

  /** The state of a server without starting it: undefined when never started. */
  stateOf(name: string): ServerState | undefined {
    return this.states.get(name);
  }

  /**
   * The running server for a file, started (and awaited) when needed. Rejects with an
   * {@link LspError}: not installed, start failed (remembered), or crashed too often.
   */
  async serverFor(path: string): Promise<LiveServer> {
    const route = await this.route(path);
    if (route instanceof LspError) throw route;
    return this.ensure(route);
  }

  /** Starts (or restarts) a server unless it runs, starts or failed; resolves when it runs. */
  ensure(route: Route): Promise<LiveServer> {
    if (this.stopped) return Promise.reject(new LspError("startFailed", "the session is closing"));
    const state = this.states.get(route.spec.name);
    if (state?.kind === "running") return Promise.resolve(state);
    if (state?.kind === "starting") return state.ready;
    if (state?.kind === "failed") return Promise.reject(new LspError("startFailed", state.reason));
    const ready = this.start(route);
    this.states.set(route.spec.name, { kind: "starting", ready });
    return ready;
  }

  /** Every server started so far and not stopped: none once {@link stopAll} ran. */
  status(): LspServerStatus[] {
    return [...this.states.entries()].map(([name, s]) => ({
      name,
      state: s.kind,
      restarts: this.restarts.get(name) ?? 0,
      ...(s.kind === "failed" ? { reason: s.reason } : {}),
      ...(s.kind === "running"
        ? { busy: s.client.busy, ...(s.client.pid !== undefined ? { pid: s.client.pid } : {}) }
        : {}),
    }));
  }

  /**
   * Takes new `[lsp.servers]` (a settings edit): stops only the started servers whose spec
   * changed or went (the next use starts the new one), keeps the others running, and routes
   * files afresh. Resolves with the names stopped, once they are; never rejects.
   */
  async updateServers(servers: Readonly<Record<string, ConfiguredLspServer>>): Promise<string[]> {
    const next = lspServerSpecs(servers);
    const key = (specs: readonly LspServerSpec[], name: string) =>
      JSON.stringify(specs.find((s) => s.name === name) ?? null);
    const changed = [...this.states.keys()].filter(
      (name) => key(this.specs, name) !== key(next, name),
    );
    this.specs = next;
    this.routes.clear();
    await Promise.all(changed.map((name) => this.stopOne(name)));
    return changed.sort();
  }

  private async stopOne(name: string): Promise<void> {
    const s = this.states.get(name);
    this.states.delete(name);
    this.restarts.delete(name);
    if (s?.kind === "running") return s.client.stop();
    if (s?.kind !== "starting") return;
    const live = await s.ready.catch(() => null);
    // The old start put itself back as it ended (running, or failed): that state goes too.
    const now = this.states.get(name);
    if ((now?.kind === "running" && now.client === live?.client) || now?.kind === "failed")
      this.states.delete(name);
    await live?.client.stop();
  }

  /** Stops every server (and the processes they started); later starts are refused. Never rejects. */
  async stopAll(): Promise<void> {
    this.stopped = true;
    const states = [...this.states.values()];
    await Promise.all(
      states.map(async (s) => {
        const live =
          s.kind === "running" ? s : s.kind === "starting" ? await s.ready.catch(() => null) : null;
        await live?.client.stop();
      }),
    );
    this.states.clear();
  }

  private async findRoute(path: string, ext: string): Promise<Route | LspError> {
    const candidates = specsForFile(this.specs, path);
    if (candidates.length === 0)
      return new LspError(
        "notInstalled",
        `No language server is configured for ${ext || "extensionless"} files.`,
      );
    for (const spec of candidates) {
      const binary = await findServerBinary(spec.command, this.options.root, this.options.env);
      if (binary) return { spec, binary };
    }
    const tried = candidates.map((s) => s.command).join(", ");
    return new LspError(
      "notInstalled",
      `No language server is installed for ${ext} files (looked for ${tried} in the project's node_modules/.bin and on PATH).`,
    );
  }

  private async start(route: Route): Promise<LiveServer> {
    const name = route.spec.name;
    try {
      const client = await LspClient.start({
        spec: route.spec,
        binary: route.binary,
        root: this.options.root,
        spawn: this.options.spawn,
        onCrash: (reason) => this.crashed(name, reason),
        ...(this.options.initializeTimeoutMs !== undefined
          ? { initializeTimeoutMs: this.options.initializeTimeoutMs }
          : {}),
      });
      const live: LiveServer = { client, docs: new DocumentSync(client, this.options.files) };
      if (this.stopped) {
        await client.stop();
        throw new LspError("startFailed", "the session is closing");
      }
      this.states.set(name, { kind: "running", ...live });
      return live;
    } catch (error) {
      const reason = `${name} failed to start: ${error instanceof Error ? error.message : String(error)}`;
      if (!this.stopped) this.states.set(name, { kind: "failed", reason });
      throw new LspError("startFailed", reason, { cause: error });
    }
  }

  /** A crash frees the slot for a restart on next use, until the restarts are spent. */
  private crashed(name: string, reason: string): void {
    // A server that dies while starting is reported by `start` as a failed start.
    if (this.states.get(name)?.kind !== "running") return;
    const used = this.restarts.get(name) ?? 0;
    const max = this.options.maxRestarts ?? 3;
    if (used >= max) {
      this.states.set(name, {
        kind: "failed",
        reason: `${reason}; not restarted again (crashed ${used + 1} times, ${max} restarts allowed)`,
      });
      return;
    }
    this.restarts.set(name, used + 1);
    this.states.delete(name);
  }
}
