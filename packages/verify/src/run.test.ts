import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { ArtifactRef, ArtifactSink, CheckDefinition } from "@z-engine/protocol";
import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { VerifyError } from "./errors.js";
import { type CheckRunner, outputTail, runCheck } from "./run.js";

const repos: FixtureRepo[] = [];
afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => r.dispose()));
});

/** A real runner: bash in the folder, stdout and stderr combined, killed by the signal. */
function bashRunner(onOutput?: (chunk: string) => void): CheckRunner {
  return ({ command, cwd, signal }) =>
    new Promise((resolve, reject) => {
      const child = spawn("bash", ["-c", command], {
        cwd,
        signal,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      const take = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        onOutput?.(chunk.toString("utf8"));
      };
      child.stdout.on("data", take);
      child.stderr.on("data", take);
      child.on("error", (error) => {
        if (error.name !== "AbortError") reject(error);
      });
      child.on("close", (code) => resolve({ exitCode: code, output }));
    });
}

/** A real fingerprint: every file's path, size and mtime, hashed. */
async function fingerprint(root: string): Promise<string> {
  const hash = createHash("sha256");
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of files) {
    const info = await stat(file);
    hash.update(`${file}\0${info.size}\0${info.mtimeMs}\n`);
  }
  return hash.digest("hex").slice(0, 16);
}

class MemorySink implements ArtifactSink {
  readonly stored = new Map<string, string>();
  async put(name: string, data: string | Uint8Array): Promise<ArtifactRef> {
    const text = typeof data === "string" ? data : new TextDecoder().decode(data);
    const ref = `artifact:${name}-${this.stored.size}`;
    this.stored.set(ref, text);
    return { ref, name, bytes: Buffer.byteLength(text), mediaType: "text/plain", truncated: false };
  }
  async read(ref: string) {
    const text = this.stored.get(ref);
    return text === undefined ? undefined : new TextEncoder().encode(text);
  }
}

const check = (
  command: string,
  kind: CheckDefinition["kind"] = "test",
  cwd = ".",
): CheckDefinition =>
  ({
    id: `npm:${kind}${cwd === "." ? "" : `@${cwd}`}`,
    kind,
    command,
    cwd,
    source: "discovered",
  }) as CheckDefinition;

async function nodeProject(): Promise<FixtureRepo> {
  const repo = await createFixtureRepo({
    git: false,
    files: {
      "pkg/ok.test.mjs":
        'import { test } from "node:test";\ntest("a", () => {});\ntest("b", () => {});\n',
      "pkg/bad.test.mjs":
        'import { test } from "node:test";\nimport assert from "node:assert";\ntest("c", () => assert.equal(1, 2));\n',
    },
  });
  repos.push(repo);
  return repo;
}

function ticking(start: number, step: number): () => number {
  let now = start - step;
  return () => {
    now += step;
    return now;
  };
}

describe("runCheck with real processes", () => {
  it("records a passing test run: counts, duration, tail, artifact and fingerprints", async () => {
    const repo = await nodeProject();
    const artifacts = new MemorySink();
    const record = await runCheck(check("node --test ok.test.mjs", "test", "pkg"), {
      projectRoot: repo.root,
      runner: bashRunner(),
      fingerprint: () => fingerprint(repo.root),
      artifacts,
      clock: ticking(1_000, 250),
    });
    expect(record).toMatchObject({
      checkId: "npm:test@pkg",
      kind: "test",
      command: "node --test ok.test.mjs",
      cwd: "pkg",
      exitCode: 0,
      passed: true,
      counts: { passed: 2, failed: 0, skipped: 0 },
      startedAt: 1_000,
      durationMs: 250,
    });
    expect(record.runId).toMatch(/^run_/);
    expect(record.fingerprintAfter).toBe(record.fingerprintBefore);
    expect(artifacts.stored.get(record.output?.ref ?? "")).toContain("# pass 2");
    expect(record.outputTail).toContain("# pass 2");
  });

  it("records a failing run with its failed count", async () => {
    const repo = await nodeProject();
    const record = await runCheck(check("node --test"), {
      projectRoot: join(repo.root, "pkg"),
      runner: bashRunner(),
      fingerprint: () => fingerprint(repo.root),
      artifacts: new MemorySink(),
    });
    expect(record.exitCode).toBe(1);
    expect(record.passed).toBe(false);
    expect(record.counts).toEqual({ passed: 2, failed: 1, skipped: 0 });
  });

  it("sees a check that changes files in its after-fingerprint", async () => {
    const repo = await nodeProject();
    const record = await runCheck(check("echo formatted > pkg/out.txt", "format"), {
      projectRoot: repo.root,
      runner: bashRunner(),
      fingerprint: () => fingerprint(repo.root),
      artifacts: new MemorySink(),
    });
    expect(record.passed).toBe(true);
    expect(record.counts).toBeNull();
    expect(record.fingerprintAfter).not.toBe(record.fingerprintBefore);
  });

  it("fails a run that exits 0 while its counts show a failure, and parses only test checks", async () => {
    const repo = await nodeProject();
    const options = {
      projectRoot: repo.root,
      runner: bashRunner(),
      fingerprint: async () => "f",
      artifacts: new MemorySink(),
    };
    const summary = "printf ' Tests  1 failed | 3 passed (4)\\n'";
    const masked = await runCheck(check(`${summary}; exit 0`), options);
    expect(masked).toMatchObject({
      exitCode: 0,
      passed: false,
      counts: { passed: 3, failed: 1, skipped: 0 },
    });
    const lint = await runCheck(check(summary, "lint"), options);
    expect(lint).toMatchObject({ exitCode: 0, passed: true, counts: null });
  });

  it("keeps the end of a huge output inline and all of it in the artifact", async () => {
    const repo = await nodeProject();
    const artifacts = new MemorySink();
    const record = await runCheck(check("seq 1 300000; echo '# pass 7'; echo '# fail 0'"), {
      projectRoot: repo.root,
      runner: bashRunner(),
      fingerprint: async () => "f",
      artifacts,
    });
    const full = artifacts.stored.get(record.output?.ref ?? "") ?? "";
    expect(full.split("\n")).toHaveLength(300_003);
    expect(record.outputTail.length).toBeLessThan(4_100);
    expect(record.outputTail).toMatch(
      /^\[\.\.\. \d+ earlier characters in the full output\]\n\d+\n/,
    );
    expect(record.outputTail.endsWith("# pass 7\n# fail 0\n")).toBe(true);
    expect(record.counts).toEqual({ passed: 7, failed: 0, skipped: 0 });
  });

  it("records a run cancelled mid-way as killed (null exit code)", async () => {
    const repo = await nodeProject();
    const controller = new AbortController();
    const record = await runCheck(check("echo started; sleep 30"), {
      projectRoot: repo.root,
      runner: bashRunner((chunk) => {
        if (chunk.includes("started")) controller.abort();
      }),
      fingerprint: async () => "f",
      artifacts: new MemorySink(),
      signal: controller.signal,
    });
    expect(record).toMatchObject({ exitCode: null, passed: false });
    expect(record.outputTail).toContain("started");
  });
});

describe("runCheck failures", () => {
  const base = { projectRoot: "/tmp", fingerprint: async () => "f", artifacts: new MemorySink() };

  it("turns a runner that cannot start into a failed record", async () => {
    const record = await runCheck(check("npm test"), {
      ...base,
      runner: async () => {
        throw Object.assign(new Error("spawn bash ENOENT"), { code: "ENOENT" });
      },
    });
    expect(record).toMatchObject({ exitCode: null, passed: false, counts: null });
    expect(record.outputTail).toBe("[check could not start: ENOENT: spawn bash ENOENT]");
  });

  it("marks a timed-out run failed even with exit code 0", async () => {
    const record = await runCheck(check("npm test"), {
      ...base,
      runner: async () => ({ exitCode: 0, output: "partial\n", timedOut: true }),
    });
    expect(record.passed).toBe(false);
    expect(record.outputTail).toBe("partial\n\n[check timed out]");
  });

  it("keeps the record when the artifact sink fails", async () => {
    const record = await runCheck(check("npm test"), {
      ...base,
      artifacts: {
        put: async () => Promise.reject(new Error("disk full")),
        read: async () => undefined,
      },
      runner: async () => ({ exitCode: 0, output: "ok\n" }),
    });
    expect(record.output).toBeNull();
    expect(record.outputTail).toBe("ok\n");
  });

  it("rejects with fingerprintFailed and with aborted (without running)", async () => {
    let ran = 0;
    const runner: CheckRunner = async () => {
      ran++;
      return { exitCode: 0, output: "" };
    };
    const failing = runCheck(check("npm test"), {
      ...base,
      runner,
      fingerprint: () => Promise.reject(new Error("EIO")),
    });
    await expect(failing).rejects.toMatchObject({ code: "fingerprintFailed" });
    const controller = new AbortController();
    controller.abort();
    const aborted = await runCheck(check("npm test"), {
      ...base,
      runner,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(VerifyError);
    expect((aborted as VerifyError).code).toBe("aborted");
    expect(ran).toBe(0);
  });
});

describe("outputTail", () => {
  it("returns short output whole and cuts long output at a line", () => {
    expect(outputTail("a\nb\n", 10)).toBe("a\nb\n");
    expect(outputTail("line1\nline2\nline3\n", 10)).toBe(
      "[... 12 earlier characters in the full output]\nline3\n",
    );
    expect(outputTail("x".repeat(50), 10)).toBe(
      `[... 40 earlier characters in the full output]\n${"x".repeat(10)}`,
    );
  });
});
