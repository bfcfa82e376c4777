import { stat } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import type { ProjectFileReader } from "@z-engine/protocol";
import type { LspClient } from "./client.js";
import { languageIdOf } from "./specs.js";

interface OpenDocument {
  readonly uri: string;
  version: number;
  size: number;
  mtimeMs: number;
}

/** What {@link DocumentSync.sync} did ("refused": the door would not hand over the text). */
export type SyncResult = "opened" | "changed" | "unchanged" | "closed" | "missing" | "refused";

/** Most bytes of one file a server is sent. */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

/** The LSP URI of an absolute path. */
export function uriOf(path: string): string {
  return pathToFileURL(path).href;
}

/**
 * The documents a server has open, kept in step with the files on disk: each sync compares
 * the file's size and modification time with what the server last got, and sends
 * didOpen, didChange (the whole text), or didClose when the file is gone. This catches the
 * engine's own writes and files changed by shell commands alike. The text is read only
 * through `files` (the engine's door: the Read rules, regular files, bounded reads).
 */
export class DocumentSync {
  private readonly open = new Map<string, OpenDocument>();
  private readonly queue = new Map<string, Promise<SyncResult>>();
  private readonly refusals = new Map<string, string>();

  constructor(
    private readonly client: LspClient,
    readonly files: ProjectFileReader,
  ) {}

  /** Why the last sync of `path` was refused (a sentence naming the path). */
  refusal(path: string): string | undefined {
    return this.refusals.get(path);
  }

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
    if (!info?.isFile()) return this.close(path, "missing");
    if (doc && doc.size === info.size && doc.mtimeMs === info.mtimeMs) return "unchanged";
    const read = await this.files.readText(path, { maxBytes: MAX_DOCUMENT_BYTES });
    if (!read.ok) {
      if (read.reason === "missing") return this.close(path, "missing");
      this.refusals.set(path, read.message);
      return this.close(path, "refused");
    }
    this.refusals.delete(path);
    const { text } = read;
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

  /** Closes `path` on the server if it was open: "closed", else `otherwise`. */
  private close(path: string, otherwise: "missing" | "refused"): SyncResult {
    const doc = this.open.get(path);
    if (!doc) return otherwise;
    this.open.delete(path);
    this.client.notify("textDocument/didClose", { textDocument: { uri: doc.uri } });
    return otherwise === "refused" ? "refused" : "closed";
  }
}
