import { spawnSync } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

// scripts/setup.sh as scripts/demo.sh runs it, on a copy of the script with the machine's
// installers replaced by programs that log their arguments (apt-get, npm and pnpm reach the
// network and need root; what the script decides is what is under test).
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const LOGGER = '#!/bin/sh\necho "$(basename "$0") $*" >> "$SETUP_LOG"\n';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function runSetup(mode: "demo" | "all") {
  dir = await mkdtemp(join(tmpdir(), "zeng-setup-"));
  const bin = join(dir, "bin");
  await mkdir(join(dir, "scripts"), { recursive: true });
  await mkdir(bin);
  await copyFile(join(ROOT, "scripts/setup.sh"), join(dir, "scripts/setup.sh"));
  await writeFile(
    join(dir, "scripts/install-services.sh"),
    LOGGER.replace('$(basename "$0")', "install-services"),
  );
  await writeFile(
    join(dir, "scripts/install-language-servers.sh"),
    LOGGER.replace('$(basename "$0")', "install-language-servers"),
  );
  await writeFile(
    join(dir, "scripts/install-mcp-clients.sh"),
    LOGGER.replace('$(basename "$0")', "install-mcp-clients"),
  );
  const conformance = join(dir, "packages/engine/bench/conformance");
  await mkdir(conformance, { recursive: true });
  await writeFile(
    join(conformance, "install.mjs"),
    'import { appendFileSync } from "node:fs";\nappendFileSync(process.env.SETUP_LOG, "install-conformance\\n");\n',
  );
  const programs: Record<string, string> = {
    "apt-get": LOGGER,
    npm: LOGGER,
    // Root, so the Debian step would run if the mode let it.
    id: '#!/bin/sh\n[ "$1" = "-u" ] && echo 0 || echo "uid=0(root)"\n',
    pnpm: `${LOGGER}[ "$1" = "--version" ] && echo 10.34.9\nexit 0\n`,
  };
  for (const [name, text] of Object.entries(programs)) {
    await writeFile(join(bin, name), text);
    await chmod(join(bin, name), 0o755);
  }
  const log = join(dir, "calls.log");
  await writeFile(log, "");
  const out = spawnSync("bash", [join(dir, "scripts/setup.sh")], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir, SETUP_LOG: log, ZENG_SETUP: mode },
  });
  return {
    status: out.status,
    stdout: out.stdout,
    calls: (await readFile(log, "utf8")).trim().split("\n"),
  };
}

describe("scripts/setup.sh for the demo", () => {
  it("installs no Debian package and no services, builds only the CLI, a timed line per step", async () => {
    const run = await runSetup("demo");
    expect(run.status).toBe(0);
    // apt-get, and every installer: services, language servers, MCP clients, conformance.
    expect(run.calls.some((c) => /^(apt-get|install-)/.test(c))).toBe(false);
    expect(run.calls).toContain(
      "pnpm exec turbo run build --filter=@z-engine/cli... --output-logs=errors-only",
    );
    expect(run.calls.some((c) => c.startsWith("pnpm build"))).toBe(false);
    const done = run.stdout.split("\n").filter((l) => /^setup: .+ done \(\d+\.\d s\)$/.test(l));
    expect(done.map((l) => l.replace(/ done .*/, ""))).toEqual([
      "setup: installing the workspace's packages",
      "setup: building the CLI and the packages it uses",
    ]);
  });

  it("the full set-up still installs the services and language servers and builds everything", async () => {
    const run = await runSetup("all");
    expect(run.status).toBe(0);
    expect(run.calls.some((c) => c.startsWith("install-services"))).toBe(true);
    expect(run.calls).toContain("install-language-servers ");
    expect(run.calls).toContain("install-mcp-clients ");
    expect(run.calls).toContain("install-conformance");
    expect(run.calls).toContain("pnpm build --output-logs=errors-only");
  });
});
