import type { SessionHandle } from "../session/handle.js";
import { type MemoryFiles, memoryFiles } from "../commands/memory-files.js";
import { targetOf } from "./registry.js";

/**
 * The session's instruction files (what `/memory` lists): every top-level file discovery
 * reads, whether it is there and whether the door refuses it, and the project file to create
 * when the project folder has none. Nothing is read. Throws a `QueryError` for a handle this
 * engine did not make; never rejects otherwise.
 */
export function instructionFiles(handle: SessionHandle): Promise<MemoryFiles> {
  return memoryFiles(targetOf(handle).session);
}

/**
 * The instruction files changed (an editor saved one): the session's next turn reads them
 * again, as after `/memory`, without a `commandOutput`. Throws a `QueryError` for a handle
 * this engine did not make.
 */
export function reloadInstructions(handle: SessionHandle): void {
  targetOf(handle).session.reloadInstructions();
}
