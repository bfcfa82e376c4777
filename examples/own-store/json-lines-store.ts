import { appendFile, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { newSessionId, type SessionId } from "@z-engine/protocol";
import * as store from "@z-engine/store";

/** Sessions as one JSON-lines file each in `dir` (no locking, no repair: a sketch of the contract). */
export function jsonLinesStore(dir: string): store.SessionStore {
  const file = (id: string) => join(dir, `${id}.jsonl`);
  const open = (id: SessionId, fold = new store.ReplayFold()): store.Session => {
    const append = async (r: store.LogRecord) => {
      await appendFile(file(id), `${JSON.stringify(r)}\n`);
      fold.apply(r);
    };
    const noAgents = async () => Promise.reject(new store.StoreError("notFound", "no subagents"));
    const [artifacts, done] = [new store.FileArtifactSink(join(dir, id)), async () => {}];
    const parts = { append, appendAgent: noAgents, readAgent: noAgents, sync: done, close: done };
    return { id, dir, logPath: file(id), artifacts, snapshot: () => fold.snapshot(), ...parts };
  };
  const replay = async (id: string) => {
    const fold = new store.ReplayFold();
    const text = await readFile(file(id), "utf8");
    for (const line of text.split("\n").filter(Boolean)) fold.apply(JSON.parse(line));
    return { fold, bytes: text.length };
  };
  return {
    async create({ projectRoot, ...rest }) {
      await mkdir(dir, { recursive: true });
      const session = open(newSessionId());
      await session.append(store.logRecord("session", { sessionId: session.id, projectRoot }));
      if (rest.mode) await session.append(store.logRecord("mode", { mode: rest.mode }));
      if (rest.model) await session.append(store.logRecord("model", { model: rest.model }));
      return session;
    },
    async open(id) {
      const { fold } = await replay(id);
      const report = {
        damage: [],
        unknown: [],
        tornTail: null,
        metaRebuilt: null,
        legacyImport: null,
      };
      return { session: open(id as SessionId, fold), replay: fold.snapshot(), report };
    },
    list: async () => {
      const ids = (await readdir(dir))
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => f.slice(0, -6));
      const metas = await Promise.all(
        ids.map(async (id) => {
          const { fold, bytes } = await replay(id);
          return {
            ...store.metaFromReplay(id, fold.snapshot(), bytes, 0),
            source: "folder" as const,
          };
        }),
      );
      return metas.sort((a, b) => b.updatedAt - a.updatedAt);
    },
    delete: (id) => rm(file(id), { force: true }),
  };
}
