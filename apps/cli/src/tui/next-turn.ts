/**
 * Resolves on a later turn of the event loop, after its poll for input, so that the work
 * after it is a block of its own and a key typed meanwhile is read first. (An immediate queued
 * from an I/O callback or a promise runs before the next poll, in the same turn; one queued
 * from an immediate runs in the next turn.)
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
