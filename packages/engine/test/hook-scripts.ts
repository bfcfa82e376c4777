import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One `[[hooks.<Event>]]` entry, with the script's body (bash) instead of a command. */
export interface HookSpec {
  readonly event: string;
  readonly matcher?: string;
  readonly body: string;
  readonly timeoutSecs?: number;
}

/** A temporary folder of executable hook scripts and the settings.toml text that configures them. */
export interface HookScripts {
  readonly dir: string;
  /** The `[[hooks.<Event>]]` tables, to put into a settings file. */
  readonly toml: string;
  /** A file in the folder (scripts write what they saw there). */
  path(name: string): string;
  /** Reads a file of the folder, or "" when it does not exist. */
  read(name: string): Promise<string>;
  dispose(): Promise<void>;
}

const quote = (s: string) => JSON.stringify(s);

/**
 * Writes each hook as an executable bash script (`$HOOK_DIR` is the scripts' folder) and
 * builds the settings that run them.
 */
export async function hookScripts(specs: readonly HookSpec[]): Promise<HookScripts> {
  const dir = await mkdtemp(join(tmpdir(), "zeng-hooks-"));
  const tables: string[] = [];
  for (const [i, spec] of specs.entries()) {
    const file = join(dir, `hook-${i}.sh`);
    await writeFile(file, `#!/bin/bash\nHOOK_DIR=${quote(dir)}\n${spec.body}\n`);
    await chmod(file, 0o755);
    tables.push(
      [
        `[[hooks.${spec.event}]]`,
        ...(spec.matcher === undefined ? [] : [`matcher = ${quote(spec.matcher)}`]),
        `command = ${quote(file)}`,
        `timeout_secs = ${spec.timeoutSecs ?? 10}`,
      ].join("\n"),
    );
  }
  return {
    dir,
    toml: `${tables.join("\n\n")}\n`,
    path: (name) => join(dir, name),
    read: (name) => readFile(join(dir, name), "utf8").catch(() => ""),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
