import { chmod, lstat, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { type AddressInfo, type Server, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FixtureRepo, createFixtureRepo } from "@z-engine/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createShell } from "../process/local-shell.js";
import type { Shell } from "../shell.js";
import { BubblewrapSandbox } from "./bubblewrap.js";
import { buildSandboxProfile } from "./profile.js";

// The escape table: each row is a way out of the sandbox. It must fail inside and succeed
// outside (so the row is a real escape, not a broken command), as root and as an
// unprivileged user.

const baseEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const servers: Server[] = [];
let fixed: string;
let port: number;
const abstractName = `zeng-escape-${process.pid}`;

const CLIENT = `const [kind, name] = process.argv.slice(2);
const socket = require("node:net").connect(kind === "abstract" ? "\\0" + name : name);
socket.on("data", (d) => process.exit(String(d).includes("hello") ? 0 : 1));
socket.on("error", () => process.exit(1));
`;

function serve(listen: (server: Server, ready: () => void) => void): Promise<Server> {
  const server = createServer((socket) => socket.end("hello\n"));
  servers.push(server);
  return new Promise((resolve) => listen(server, () => resolve(server)));
}

beforeAll(async () => {
  // Servers and the client script live in a folder every user can reach.
  fixed = await realpath(await mkdtemp(join(tmpdir(), "zeng-escape-fixed-")));
  await chmod(fixed, 0o755);
  await writeFile(join(fixed, "client.cjs"), CLIENT);
  const tcp = await serve((s, ready) => s.listen(0, "127.0.0.1", ready));
  port = (tcp.address() as AddressInfo).port;
  await serve((s, ready) => s.listen(join(fixed, "host.sock"), ready));
  await chmod(join(fixed, "host.sock"), 0o777);
  await serve((s, ready) => s.listen(`\0${abstractName}`, ready));
  for (const [name, program] of [
    ["bwrap-as-nobody", "bwrap"],
    ["bash-as-nobody", "bash"],
  ]) {
    const drop = `setpriv --reuid=${NOBODY} --regid=${NOBODY} --clear-groups`;
    await writeFile(join(fixed, name!), `#!/bin/sh\nexec ${drop} ${program} "$@"\n`, {
      mode: 0o755,
    });
  }
});
afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(fixed, { recursive: true, force: true });
});

interface Escape {
  readonly name: string;
  readonly command: () => string;
  /** The command that shows the row's effect is real outside (default `command`). */
  readonly outside?: () => string;
  /** The path the command creates when it succeeds (checked on disk), if any. */
  readonly creates?: () => string;
  /** Runs before both attempts. */
  readonly prepare?: () => Promise<void>;
  /** Only an escape for root (an unprivileged user cannot do it outside either). */
  readonly rootOnly?: boolean;
}

let scratch: string;
let repo: FixtureRepo;
const out = (name: string) => join(scratch, "outside", name);
const client = (kind: string, name: string) => `node ${join(fixed, "client.cjs")} ${kind} ${name}`;

const escapes: Escape[] = [
  {
    name: "writing outside the root",
    command: () => `echo pwned > ${out("x.txt")}`,
    creates: () => out("x.txt"),
  },
  {
    name: "writing .git/hooks/pre-commit",
    command: () => "printf '#!/bin/sh\\n' > .git/hooks/pre-commit",
    creates: () => repo.path(".git/hooks/pre-commit"),
  },
  {
    name: "writing .git/config",
    command: () => "echo '[core]' >> .git/config && grep -c core .git/config | grep -q 2",
  },
  {
    name: "planting .git/commondir",
    command: () => `echo ${out("")} > .git/commondir`,
    creates: () => repo.path(".git/commondir"),
  },
  {
    name: "moving .git away and putting a copy with a new config in its place",
    command: () => "mv .git .git_orig && cp -r .git_orig .git && echo '[core]' >> .git/config",
    creates: () => repo.path(".git_orig"),
  },
  {
    name: "removing .git and making a new one",
    command: () => "rm -rf .git; mkdir .git && echo x > .git/planted",
    creates: () => repo.path(".git/planted"),
  },
  {
    name: "creating .git where there is none",
    prepare: () => rm(repo.path(".git"), { recursive: true, force: true }),
    command: () => "mkdir .git && echo x > .git/config",
    creates: () => repo.path(".git/config"),
  },
  {
    name: "writing .z-engine/settings.toml (the folder does not exist yet)",
    command: () => "mkdir -p .z-engine && echo 'x = 1' > .z-engine/settings.toml",
    creates: () => repo.path(".z-engine/settings.toml"),
  },
  {
    name: "repointing a worktree agent's .git file at a planted git folder",
    prepare: async () => {
      await mkdir(repo.path(".z-engine/worktrees/a1"), { recursive: true });
      await writeFile(repo.path(".z-engine/worktrees/a1/.git"), "gitdir: /engine/a1/git\n");
      // Writable outside for the unprivileged identity too.
      for (const dir of [".z-engine", ".z-engine/worktrees", ".z-engine/worktrees/a1"])
        await chmod(repo.path(dir), 0o777);
      await chmod(repo.path(".z-engine/worktrees/a1/.git"), 0o666);
    },
    command: () =>
      "printf 'gitdir: /planted\\n' > .z-engine/worktrees/a1/.git && grep -q planted .z-engine/worktrees/a1/.git",
  },
  {
    name: "creating a worktree agent's folder (.z-engine/worktrees does not exist yet)",
    command: () => "mkdir -p .z-engine/worktrees/a1 && echo x > .z-engine/worktrees/a1/.git",
    creates: () => repo.path(".z-engine/worktrees/a1/.git"),
  },
  {
    name: "creating .mcp.json",
    command: () => "echo '{}' > .mcp.json",
    creates: () => repo.path(".mcp.json"),
  },
  {
    name: "writing through a symlink that points out of the root",
    prepare: () => symlink(out("target.txt"), repo.path("link-out")),
    command: () => "echo pwned > link-out",
    creates: () => out("target.txt"),
  },
  {
    name: "remounting the file system writable, then writing outside the root",
    command: () => `mount -o remount,rw,bind / / 2>/dev/null; echo pwned > ${out("m.txt")}`,
    outside: () => `echo pwned > ${out("m.txt")}`,
    creates: () => out("m.txt"),
  },
  {
    name: "keeping any capability",
    command: () => "grep -Eq '^CapEff:[[:space:]]*0*[1-9a-f]' /proc/self/status",
    rootOnly: true,
  },
  {
    name: "connecting to a loopback server with network off",
    command: () => `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3 | grep -q hello`,
  },
  {
    name: "connecting to a host Unix socket (a file) with network off",
    command: () => client("path", join(fixed, "host.sock")),
  },
  {
    name: "connecting to a host abstract Unix socket with network off",
    command: () => client("abstract", abstractName),
  },
];

interface Identity {
  readonly name: string;
  readonly skip: string | null;
  readonly uid: number | null;
  shells(): { inside: Shell; outside: Shell; backend: BubblewrapSandbox };
}

const identities: Identity[] = [
  {
    name: isRoot ? "as root" : "as the current (unprivileged) user",
    skip: null,
    uid: null,
    shells() {
      const backend = new BubblewrapSandbox();
      return { backend, outside: createShell({ baseEnv }), inside: inside(backend) };
    },
  },
  {
    name: "as an unprivileged user (nobody, through setpriv)",
    skip: isRoot ? null : "needs root to switch to nobody; the run above is already unprivileged",
    uid: NOBODY,
    shells() {
      const options = { bwrap: join(fixed, "bwrap-as-nobody"), uid: NOBODY, gid: NOBODY };
      const backend = new BubblewrapSandbox(options);
      const outside = createShell({ baseEnv, program: join(fixed, "bash-as-nobody") });
      return { backend, outside, inside: inside(backend) };
    },
  },
];

function inside(backend: BubblewrapSandbox): Shell {
  // The profile's temporary folder is a private one, so the real /tmp (and `outside`) stay read-only.
  const profile = buildSandboxProfile({
    root: repo.root,
    homeDir: join(scratch, "home"),
    tmpDir: join(scratch, "tmp"),
    allowNetwork: false,
  });
  return createShell({ baseEnv, sandbox: { backend, profile } });
}

async function chownTree(path: string, uid: number): Promise<void> {
  const { execFile } = await import("node:child_process");
  await new Promise<void>((resolve, reject) =>
    execFile("chown", ["-R", `${uid}:${uid}`, path], (error) =>
      error ? reject(error) : resolve(),
    ),
  );
}

for (const identity of identities) {
  describe.skipIf(identity.skip !== null)(
    `BubblewrapSandbox escape table ${identity.name}${identity.skip ? ` (skipped: ${identity.skip})` : ""}`,
    () => {
      let backend: BubblewrapSandbox | undefined;
      beforeEach(async () => {
        scratch = await realpath(await mkdtemp(join(tmpdir(), "zeng-sandbox-")));
        for (const dir of ["tmp", "home", "outside"]) await mkdir(join(scratch, dir));
        repo = await createFixtureRepo({ files: { "src/a.txt": "a" } });
        if (identity.uid !== null) {
          await chmod(scratch, 0o755);
          await chownTree(join(scratch, "outside"), identity.uid);
          await chownTree(join(scratch, "tmp"), identity.uid);
          await chownTree(repo.root, identity.uid);
        }
      });
      afterEach(async () => {
        backend?.dispose();
        await repo.dispose();
        await rm(scratch, { recursive: true, force: true });
      });
      for (const row of escapes) {
        const skip = row.rootOnly === true && (!isRoot || identity.uid !== null);
        it.skipIf(skip)(
          `${row.name}${skip ? " (skipped: only an escape for root)" : ""}`,
          async () => {
            const shells = identity.shells();
            backend = shells.backend;
            await row.prepare?.();
            const confined = await shells.inside.run({ command: row.command(), cwd: repo.root });
            expect(confined.error).toBeUndefined();
            expect(confined.exitCode).not.toBe(0);
            if (row.creates) await expect(lstat(row.creates())).rejects.toThrow();
            const command = row.outside?.() ?? row.command();
            const free = await shells.outside.run({ command, cwd: repo.root });
            expect(free.exitCode, free.output).toBe(0);
            if (row.creates) expect(await lstat(row.creates())).toBeTruthy();
          },
          30_000,
        );
      }
    },
  );
}
