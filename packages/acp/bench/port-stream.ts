// A byte stream over a MessagePort (one side of an ndjson pipe between two threads), for the
// overhead bench: the agent on the main thread, the editor in a worker.
import type { MessagePort } from "node:worker_threads";

/** The readable and writable byte streams of one end of `port`. */
export function portStreams(port: MessagePort): {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
} {
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      port.on("message", (chunk: Uint8Array) => controller.enqueue(chunk));
      port.on("close", () => controller.close());
    },
  });
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      port.postMessage(chunk);
    },
    close() {
      port.close();
    },
  });
  return { readable, writable };
}
