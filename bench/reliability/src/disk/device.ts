// The data folder's device for one row of the full-disk suite, inside its private mount
// namespace (run.ts): a 4 MiB tmpfs that fills up, or eio-fs (native/eio-fs.c), a FUSE
// passthrough over a backing folder whose writes fail with a real EIO while its switch is on.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

/** The filler file on the data disk: the rows fill the disk with it and remove it after. */
export const fillerOf = (dataDir: string) => join(dataDir, "filler.bin");

/** Writes zeros to `path` until the disk refuses (ENOSPC); the file is left in place. */
export function fillDisk(path: string): void {
  const fd = openSync(path, "a");
  try {
    for (const size of [1 << 20, 1 << 16, 4096, 1]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Frees the space the filler took. */
export const freeDisk = (path: string) => rmSync(path, { force: true });

/** How a row's device fails: it fills up, or (eio-fs) the switch's words fail with EIO. */
export type DeviceFault =
  | { readonly kind: "full" }
  | { readonly kind: "eio"; readonly words: string };

/** A mounted data folder and its fault, turned on and off. */
export interface Device {
  /** Fails the device now: fills the tmpfs, or turns the EIO switch on. */
  fail(): void;
  /** Heals it: frees the space, or turns the switch off. */
  heal(): void;
  /** Unmounts it (eio-fs exits once unmounted). */
  unmount(): Promise<void>;
}

/** The eio-fs binary `scripts/install-eio-fs.sh` builds (tests run from src/, it is in dist/). */
export const EIO_FS = fileURLToPath(new URL("../../dist/native/eio-fs", import.meta.url));

/** Mounts the device for `fault` at `dataDir`; `home` holds eio-fs's backing folder and switch. */
export async function mountDevice(
  fault: DeviceFault,
  home: string,
  dataDir: string,
): Promise<Device> {
  if (fault.kind === "full") {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", dataDir]);
    const filler = fillerOf(dataDir);
    return {
      fail: () => fillDisk(filler),
      heal: () => freeDisk(filler),
      unmount: async () => {
        execFileSync("umount", [dataDir]);
      },
    };
  }
  const backing = join(home, "backing");
  const switchFile = join(home, "eio-switch");
  await mkdir(backing, { recursive: true });
  const child = spawn(EIO_FS, [backing, switchFile, dataDir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  await mounted(child);
  return {
    // Synchronous, so that a scripted model's reply lands on a device that already fails.
    fail: () => writeFileSync(switchFile, fault.words),
    heal: () => rmSync(switchFile, { force: true }),
    unmount: async () => {
      const exited = once(child, "exit");
      execFileSync("umount", [dataDir]);
      await exited;
    },
  };
}

/** Waits for eio-fs's "ready" line (it is mounted), or rejects with what it said instead. */
async function mounted(child: ChildProcess): Promise<void> {
  let err = "";
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    err += c;
  });
  const lines = createInterface({ input: child.stdout! });
  const exit = once(child, "exit").then(([code]) => {
    throw new Error(`eio-fs exited ${code} before it mounted: ${err.trim()}`);
  });
  const ready = (async () => {
    for await (const line of lines) if (line === "ready") return;
  })();
  await Promise.race([ready, exit]);
  exit.catch(() => undefined);
}
