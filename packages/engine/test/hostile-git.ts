import { chmod, mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FixtureRepo } from "@z-engine/testkit";

/** A project's git setup that names a planted program wherever git looks for one. */
export interface PlantedPrograms {
  /** The planted program: `evil.sh <name>` creates `ran-<name>` in `markers`. */
  readonly evil: string;
  readonly markers: string;
  /** The `ran-*` markers created so far, sorted. */
  ran(): Promise<string[]>;
}

/**
 * Writes `evil.sh` into `markers` (a folder made here) and points `repo`'s git config at
 * it: clean and smudge filters through an included file, a long-running process filter, a
 * textconv diff driver, fsmonitor, a hooks folder, a pager. The project's `.gitattributes`
 * must name the drivers (`* filter=evil diff=evil`). Filters pass their input through.
 */
export async function plantGitPrograms(
  repo: FixtureRepo,
  markers: string,
): Promise<PlantedPrograms> {
  await mkdir(markers, { recursive: true });
  const evil = join(markers, "evil.sh");
  await writeFile(
    evil,
    `#!/bin/sh\ntouch "${markers}/ran-$1"\ncase "$1" in *clean|*smudge|*textconv) exec cat ;; esac\nexit 1\n`,
  );
  await chmod(evil, 0o755);
  const run = (name: string) => `${evil} ${name}`;
  const included = join(markers, "included.config");
  await writeFile(
    included,
    `[filter "evil"]\n\tclean = ${run("clean")}\n\tsmudge = ${run("smudge")}\n`,
  );
  const hooks = join(markers, "hooks");
  await mkdir(hooks);
  for (const hook of ["post-checkout", "pre-commit", "post-commit", "reference-transaction"]) {
    await writeFile(join(hooks, hook), `#!/bin/sh\n${run(`hook-${hook}`)} </dev/null\n`);
    await chmod(join(hooks, hook), 0o755);
  }
  for (const [key, value] of [
    ["include.path", included],
    ["filter.proc.process", run("process")],
    ["diff.evil.textconv", run("textconv")],
    ["core.fsmonitor", run("fsmonitor")],
    ["core.hooksPath", hooks],
    ["core.pager", run("pager")],
  ] as const) {
    await repo.git("config", key, value);
  }
  return {
    evil,
    markers,
    ran: async () => (await readdir(markers)).filter((n) => n.startsWith("ran-")).sort(),
  };
}
