import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { getPriority, setPriority, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultWorkerScript, RepoMapBuilder } from "./repo-map-builder.js";
import { WORKER_NICE } from "./worker-protocol.js";

// The worker runs compiled code: these tests use the package's dist/ (built before tests run,
// as every package's tests use the dist/ of the packages they import).
const SCRIPT = new URL("../../dist/repo-map/repo-map-worker.js", import.meta.url);

let root: string;
const builders: RepoMapBuilder[] = [];

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}

/** 40 files: `shared` is used by all of them, `f<i>` each by the next one. */
async function project(): Promise<string[]> {
  await put("src/shared.ts", "export function sharedHelper(): number {\n  return 1;\n}\n");
  const paths = ["src/shared.ts"];
  for (let i = 0; i < 40; i++) {
    const use = i > 0 ? `import { f${i - 1} } from "./f${i - 1}";\n` : "";
    await put(
      `src/f${i}.ts`,
      `import { sharedHelper } from "./shared";\n${use}export function f${i}(): number {\n  return sharedHelper();\n}\n`,
    );
    paths.push(`src/f${i}.ts`);
  }
  await put("lib/tool.py", "def python_tool():\n    return 1\n");
  return [...paths, "lib/tool.py"];
}

function builder(options: Partial<ConstructorParameters<typeof RepoMapBuilder>[0]> = {}) {
  const b = new RepoMapBuilder({ root, script: SCRIPT, workerFrom: 0, ...options });
  builders.push(b);
  return b;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "repomap-builder-"));
});

afterEach(async () => {
  await Promise.all(builders.splice(0).map((b) => b.close()));
  await rm(root, { recursive: true, force: true });
});

describe("RepoMapBuilder", { timeout: 60_000 }, () => {
  it("builds in a worker thread with parser threads the same map as on this thread", async () => {
    expect(existsSync(fileURLToPath(SCRIPT))).toBe(true);
    const paths = await project();
    const request = { paths, tokens: 1000, focus: { text: "where is f7?" } };
    const inWorker = builder({ threads: 3 });
    expect(inWorker.thread).toBe("worker");
    const a = await inWorker.build(request);
    const here = builder({ script: null });
    expect(here.thread).toBe("main");
    const b = await here.build(request);
    expect(a.update).toMatchObject({ files: 42, parsed: 42, reused: 0, problems: [] });
    expect(a.map.text).toBe(b.map.text);
    expect(a.map.text).toContain("src/shared.ts:\n  1: export function sharedHelper(): number {");
    expect(a.map.text).toContain("def python_tool():");
  });

  it("rebuilds incrementally in the same worker, and a new worker starts from the cache file", async () => {
    const paths = await project();
    const cacheFile = join(root, ".data", "cache.json");
    const first = builder({ cacheFile, threads: 2 });
    await first.build({ paths, tokens: 1000 });
    await first.whenSaved();
    await put("src/f3.ts", "export function renamedThree(): void {}\n");
    const warm = await first.build({ paths, tokens: 1000 });
    expect(warm.update).toMatchObject({ parsed: 1, reused: 41 });
    expect(warm.map.text).toContain("renamedThree");
    await first.whenSaved();
    await first.close();
    const restarted = await builder({ cacheFile }).build({ paths, tokens: 1000 });
    expect(restarted.update).toMatchObject({ parsed: 0, reused: 42 });
    expect(restarted.map.text).toBe(warm.map.text);
  });

  it.runIf(process.platform === "linux")(
    "runs its worker at a lower priority than the session's thread (Linux: nice is per thread)",
    async () => {
      const nices = () =>
        readdirSync("/proc/self/task").map((tid) => {
          // The fields after the command's closing parenthesis; nice is the 19th field of all.
          const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
          return { tid, nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]) };
        });
      // The thread that starts the map runs 5 nicer than it did (as under `nice -n 5`): the
      // map's threads step back from there, never to a fixed value above it.
      const own = getPriority();
      const session = Math.min(19, own + 5);
      setPriority(session);
      try {
        const before = new Set(nices().map((t) => t.tid));
        const b = builder();
        await b.build({ paths: await project(), tokens: 1000 });
        const started = nices().filter((t) => !before.has(t.tid));
        const stepped = Math.min(19, session + WORKER_NICE);
        expect(started.filter((t) => t.nice === stepped).length).toBeGreaterThan(0);
        expect(started.every((t) => t.nice >= session)).toBe(true);
        expect(getPriority()).toBe(session);
      } finally {
        try {
          setPriority(own);
        } catch {
          // Without the right to raise it again, the rest of this file runs nicer.
        }
      }
    },
  );

  it("ends an idle worker and starts a new one over the cache file for the next build", async () => {
    const paths = await project();
    const b = builder({ cacheFile: join(root, ".data", "cache.json"), idleMs: 0 });
    await b.build({ paths, tokens: 1000 });
    expect(b.running).toBe(true);
    await b.whenSaved();
    await vi.waitFor(() => expect(b.running).toBe(false), { timeout: 10_000, interval: 20 });
    const next = await b.build({ paths, tokens: 1000 });
    expect(b.running).toBe(true);
    expect(next.update).toMatchObject({ parsed: 0, reused: 42 });
  });

  it("runs builds one after another, each answered with its own request", async () => {
    const paths = await project();
    const b = builder();
    const [small, big] = await Promise.all([
      b.build({ paths, tokens: 60 }),
      b.build({ paths, tokens: 1000 }),
    ]);
    expect(small.map.tokens).toBeLessThanOrEqual(60);
    expect(big.map.tokens).toBeGreaterThan(small.map.tokens);
    expect(big.update.parsed).toBe(0);
  });

  it("a stopped build rejects with the signal's reason; close ends the worker", async () => {
    const paths = await project();
    const b = builder();
    const controller = new AbortController();
    const pending = b.build({ paths, tokens: 1000 }, controller.signal);
    controller.abort(new Error("stop now"));
    await expect(pending).rejects.toThrow("stop now");
    // The next build runs as usual, from what the stopped one kept.
    const next = await b.build({ paths, tokens: 1000 });
    expect(next.update.files).toBe(42);
    await b.close();
    await expect(b.build({ paths, tokens: 1000 })).rejects.toThrow(/closed/);
  });

  it("a worker script that cannot run fails the build with an error, not a hang", async () => {
    await put("broken.js", "throw new Error('broken worker');\n");
    const b = builder({ script: new URL(`file://${join(root, "broken.js")}`) });
    await expect(b.build({ paths: await project(), tokens: 1000 })).rejects.toThrow(
      /worker failed: broken worker/,
    );
  });

  it("finds no worker script beside its TypeScript source (tests then build on this thread)", () => {
    // Under vitest this module is src/repo-map/repo-map-builder.ts: no .js sits beside it.
    expect(defaultWorkerScript()).toBeNull();
    expect(new RepoMapBuilder({ root }).thread).toBe("main");
  });

  it("builds a small project on this thread: a worker costs more memory than its parse takes time", async () => {
    const paths = await project();
    const small = builder({ workerFrom: paths.length + 1 });
    expect(small.thread).toBe("worker");
    const built = await small.build({ paths, tokens: 1000 });
    expect(small.thread).toBe("main");
    expect(built.update.parsed).toBe(42);
    const big = builder({ workerFrom: paths.length });
    await big.build({ paths, tokens: 1000 });
    expect(big.thread).toBe("worker");
  });
});
