import { readFile, stat } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import type { LspClient } from "./client.js";
import { languageIdOf } from "./specs.js";

interface OpenDocument {
  readonly uri: string;
  version: number;
  size: number;
  mtimeMs: number;
}

/** What {@link DocumentSync.sync} did. */
export type SyncResult = "opened" | "changed" | "unchanged" | "closed" | "missing";

/** The LSP URI of an absolute path. */
export function uriOf(path: string): string {
  return pathToFileURL(path).href;
}

/**
 * The documents a server has open, kept in step with the files on disk: each sync compares
 * the file's size and modification time with what the server last got, and sends
 * didOpen, didChange (the whole text), or didClose when the file is gone. This catches the
 * engine's own writes and files changed by shell commands alike.
 */
export class DocumentSync {
  private readonly open = new Map<string, OpenDocument>();
  private readonly queue = new Map<string, Promise<SyncResult>>();

  constructor(private readonly client: LspClient) {}

  /** The version the server last got of an open file. */
  versionOf(path: string): number | undefined {
    return this.open.get(path)?.version;
  }

  /** Whether the server has the file open (it has analysed it). */
  isOpen(path: string): boolean {
    return this.open.has(path);
  }

  /** Brings one file in step; calls on one path run in order. Never rejects. */
  sync(path: string): Promise<SyncResult> {
    const previous = this.queue.get(path) ?? Promise.resolve("unchanged" as SyncResult);
    const next = previous.then(() => this.syncNow(path)).catch(() => "missing" as SyncResult);
    this.queue.set(path, next);
    return next;
  }

  /** Brings every open file in step (files changed by shell commands). Never rejects. */
  async syncAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((p) => this.sync(p)));
  }

  private async syncNow(path: string): Promise<SyncResult> {
    const info = await stat(path).catch(() => null);
    const doc = this.open.get(path);
    if (!info?.isFile()) {
      if (!doc) return "missing";
      this.open.delete(path);
      this.client.notify("textDocument/didClose", { textDocument: { uri: doc.uri } });
      return "closed";
    }
    if (doc && doc.size === info.size && doc.mtimeMs === info.mtimeMs) return "unchanged";
    const text = await readFile(path, "utf8");
    if (!doc) {
      const uri = uriOf(path);
      this.open.set(path, { uri, version: 1, size: info.size, mtimeMs: info.mtimeMs });
      this.client.notify("textDocument/didOpen", {
        textDocument: { uri, languageId: languageIdOf(path), version: 1, text },
      });
      return "opened";
    }
    doc.version += 1;
    doc.size = info.size;
    doc.mtimeMs = info.mtimeMs;
    this.client.notify("textDocument/didChange", {
      textDocument: { uri: doc.uri, version: doc.version },
      contentChanges: [{ text }],
    });
    this.client.notify("textDocument/didSave", { textDocument: { uri: doc.uri } });
    return "changed";
  }
}
