import {
  type ConfiguredLspServer,
  errorsAfterWrite,
  LspManager,
  queryLsp,
} from "@z-engine/integrations";
import type { ChildEnvironment } from "@z-engine/host";
import { doorSpawner } from "../mcp/specs.js";
import { LSP_OPERATIONS, type LspOperation, type ProjectFileReader } from "@z-engine/protocol";
import {
  errorOutput,
  type LspPort,
  type LspQuery,
  type ToolOutput,
  textOutput,
} from "@z-engine/tools";

/** What a session's language servers are built from; read when the first server is needed. */
export interface SessionLspOptions {
  /** The project root (real path): servers run there (only once it is trusted). */
  readonly root: string;
  /**
   * The environment servers start with, read at each start (the session's program
   * environment: scrubbed, with the settings' `[env]`); its PATH finds them.
   */
  readonly env: () => ChildEnvironment;
  /**
   * The door the files servers are sent, and the lines quoted from their answers, are read
   * through (the session's Read rules; nothing that would ask).
   */
  readonly files: ProjectFileReader;
  /** Whether the project is trusted now: servers are programs, so they run only then. */
  readonly trusted: () => boolean;
  /** `[lsp]` now: on or off, and the configured servers. */
  readonly settings: () => {
    readonly enabled: boolean;
    readonly servers: Readonly<Record<string, ConfiguredLspServer>>;
  };
  /** Longest wait for fresh diagnostics after a write (default 2 s). */
  readonly afterWriteWaitMs?: number;
}

const UNTRUSTED =
  "Language servers run only in trusted projects (they run programs). Trust the project to use LSP.";

function isOperation(name: string): name is LspOperation {
  return (LSP_OPERATIONS as readonly string[]).includes(name);
}

/**
 * The session's LspPort: one {@link LspManager}, made on first use (its servers start
 * lazily, per file type), stopped with the session by {@link SessionLsp.close}.
 */
export class SessionLsp implements LspPort {
  private manager: LspManager | undefined;
  private closed = false;

  constructor(private readonly options: SessionLspOptions) {}

  async query(request: LspQuery, signal: AbortSignal): Promise<ToolOutput> {
    const manager = this.usable();
    if (typeof manager === "string") return errorOutput(manager);
    if (!isOperation(request.operation))
      return errorOutput(
        `Unknown LSP operation ${request.operation}; one of ${LSP_OPERATIONS.join(", ")}.`,
      );
    const answer = await queryLsp(
      manager,
      {
        operation: request.operation,
        path: request.filePath,
        ...(request.line !== undefined ? { line: request.line } : {}),
        ...(request.character !== undefined ? { column: request.character } : {}),
        ...(request.symbol !== undefined ? { symbol: request.symbol } : {}),
        ...(request.query !== undefined ? { query: request.query } : {}),
        ...(request.newName !== undefined ? { newName: request.newName } : {}),
      },
      signal,
    );
    return answer.ok ? textOutput(answer.text) : errorOutput(answer.error);
  }

  async diagnosticsAfterWrite(path: string, signal: AbortSignal): Promise<string | null> {
    const manager = this.usable();
    if (typeof manager === "string") return null;
    return errorsAfterWrite(manager, path, signal, this.options.afterWriteWaitMs);
  }

  /** The servers started so far (for status and tests). */
  status() {
    return this.manager?.status() ?? [];
  }

  /**
   * The settings changed: stops only the started servers whose `[lsp.servers]` entry changed
   * or went (the next file of their type starts the new one), or all of them when `[lsp]` is
   * now off or the project no longer trusted. Resolves with the names stopped; never rejects.
   */
  async reconcile(): Promise<string[]> {
    const manager = this.manager;
    if (!manager || this.closed) return [];
    const settings = this.options.settings();
    if (settings.enabled && this.options.trusted()) return manager.updateServers(settings.servers);
    this.manager = undefined;
    const names = manager.status().map((s) => s.name);
    await manager.stopAll();
    return names.sort();
  }

  /** Stops every server the session started, and refuses new ones. Never rejects. */
  async close(): Promise<void> {
    this.closed = true;
    await this.manager?.stopAll();
  }

  /** The manager, or why language servers cannot run now. */
  private usable(): LspManager | string {
    if (this.closed) return "The session is closing.";
    const settings = this.options.settings();
    if (!settings.enabled) return "Language servers are turned off (`[lsp] enabled = false`).";
    if (!this.options.trusted()) return UNTRUSTED;
    const folder = { path: this.options.root, reason: "trustedProject" } as const;
    this.manager ??= new LspManager({
      root: this.options.root,
      env: this.options.env().vars,
      spawn: (request) => doorSpawner({ folder, env: this.options.env() })(request),
      servers: settings.servers,
      files: this.options.files,
    });
    return this.manager;
  }
}
