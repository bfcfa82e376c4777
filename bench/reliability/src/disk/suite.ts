import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DISK_ROWS } from "./rows.js";

/** What one row of the full-disk suite found. */
export interface DiskResult {
  readonly name: string;
  /** Everything that did not hold (empty: the row passed). */
  readonly problems: string[];
  /** The reason the full turn failed with. */
  readonly reason?: string;
}

// The built row runner (tests run from src/, the runner always runs from dist/).
const RUN = fileURLToPath(new URL("../../dist/disk/run.js", import.meta.url));

/**
 * Why the suite cannot run here (it needs root and a private mount namespace to mount its
 * tmpfs), or undefined when it can.
 */
export function diskSkipReason(): string | undefined {
  if (process.getuid?.() !== 0) return "the full-disk suite mounts a tmpfs: it needs root";
  const probe = spawnSync(
    "unshare",
    ["-m", "mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", "/mnt"],
    {
      encoding: "utf8",
    },
  );
  if (probe.status !== 0)
    return `no private mount namespace here (unshare -m + mount: ${(probe.stderr || probe.error?.message || "").trim()})`;
  return undefined;
}

// Builds eio-fs (installing libfuse3 when missing): tests run from src/, bench from dist/.
const INSTALL = fileURLToPath(new URL("../../../../scripts/install-eio-fs.sh", import.meta.url));

/**
 * Why the EIO rows cannot run here (no /dev/fuse), or undefined once eio-fs is built. Throws
 * with the set-up script's words when /dev/fuse is there but eio-fs cannot be built: the
 * rows then fail, never skip.
 */
export function prepareEioFs(): string | undefined {
  if (!existsSync("/dev/fuse")) return "no /dev/fuse here: the EIO rows need FUSE";
  const built = spawnSync("bash", [INSTALL], { encoding: "utf8" });
  if (built.status !== 0)
    throw new Error(
      `scripts/install-eio-fs.sh failed: ${(built.stderr || built.error?.message || "").trim()}`,
    );
  return undefined;
}

/** Runs one row in its own `unshare -m` process. */
function runRow(index: number): Promise<DiskResult> {
  const name = DISK_ROWS[index]?.name ?? String(index);
  return new Promise((resolve) => {
    const child = spawn("unshare", ["-m", process.execPath, RUN, String(index)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      out += c;
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      if (err.length < 16_000) err += c;
    });
    child.on("close", (code, signal) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      try {
        resolve(JSON.parse(line) as DiskResult);
      } catch {
        resolve({
          name,
          problems: [`the row's process ended ${code ?? signal}: ${err.slice(-1000)}`],
        });
      }
    });
  });
}

/** Which rows a run takes: the EIO rows (see `prepareEioFs`), and only the CI subset. */
export interface DiskSuiteOptions {
  readonly eio: boolean;
  readonly ci?: boolean;
}

/** The rows `options` takes, by index. */
export const rowsOf = (options: DiskSuiteOptions) =>
  [...DISK_ROWS.entries()].filter(
    ([, row]) => (options.eio || row.fault.kind !== "eio") && !(options.ci && row.benchOnly),
  );

/** The rows `options` takes, one after another. */
export async function runDiskSuite(
  options: DiskSuiteOptions,
  onRow?: (r: DiskResult) => void,
): Promise<DiskResult[]> {
  const results: DiskResult[] = [];
  for (const [index] of rowsOf(options)) {
    const result = await runRow(index);
    results.push(result);
    onRow?.(result);
  }
  return results;
}
