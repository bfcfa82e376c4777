import { uriOf } from "./documents.js";
import { LspError } from "./errors.js";
import { diagnosticLine, Quoter } from "./format.js";
import type { LspManager } from "./manager.js";
import { fileDiagnostics } from "./operations.js";

/** Error lines appended to a write's result at most. */
export const MAX_AFTER_WRITE_ERRORS = 20;
/** The default longest wait for fresh diagnostics after a write. */
export const AFTER_WRITE_WAIT_MS = 2000;

/**
 * Fresh errors for a file just written, as lines (`path:line:col: error: message`, at most
 * 20, warnings left out), or `null` when there is nothing to add. Waits (at most `waitMs`)
 * only on a server that runs, is not starting or indexing (no progress token open) and has
 * the file open already; otherwise it brings the file in step (or starts the server) in the
 * background and resolves `null` at once. Never rejects.
 */
export async function errorsAfterWrite(
  manager: LspManager,
  path: string,
  signal: AbortSignal,
  waitMs = AFTER_WRITE_WAIT_MS,
): Promise<string | null> {
  const route = await manager.route(path);
  if (route instanceof LspError) return null;
  const state = manager.stateOf(route.spec.name);
  if (!state) {
    // Started in the background, with the file opened, for the writes that follow.
    void manager
      .ensure(route)
      .then((server) => server.docs.sync(path))
      .catch(() => {});
    return null;
  }
  if (state.kind !== "running") return null;
  if (state.client.busy || !state.docs.isOpen(path)) {
    void state.docs.sync(path);
    return null;
  }
  const before = state.client.pushed(uriOf(path)).count;
  const sync = await state.docs.sync(path);
  if (sync !== "changed") return null;
  const items = await fileDiagnostics(state, path, before, waitMs, signal);
  const errors = (items ?? []).filter((d) => (d.severity ?? 1) === 1);
  if (errors.length === 0) return null;
  const q = new Quoter(manager.root, manager.files);
  const lines = errors.slice(0, MAX_AFTER_WRITE_ERRORS).map((d) => diagnosticLine(path, d, q));
  const more =
    errors.length > MAX_AFTER_WRITE_ERRORS
      ? `\n… and ${errors.length - MAX_AFTER_WRITE_ERRORS} more errors`
      : "";
  return lines.join("\n") + more;
}
