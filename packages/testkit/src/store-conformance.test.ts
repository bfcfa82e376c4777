import { appendFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileSessionStore } from "@z-engine/store";
import { createMemoryStore } from "./memory-store.js";
import { runStoreConformance } from "./store-conformance.js";

await runStoreConformance("createMemoryStore", () => ({ store: createMemoryStore() }));

await runStoreConformance("FileSessionStore", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "zeng-conformance-"));
  const store = new FileSessionStore({ dataDir });
  return {
    store,
    reopen: () => new FileSessionStore({ dataDir }),
    tearLastRecord: (id) =>
      appendFile(join(store.sessionDir(id), "log.jsonl"), '{"kind":"message","v":2,"ts":1,"mes'),
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
});
