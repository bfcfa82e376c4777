import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAIN } from "../../e2e/cli.test.helpers.js";
import { type Pane, startPane } from "./tmux.test.helpers.js";

/** The built module (the bundle's globalSetup has run `tsc -b`). */
const HAND_OFF = join(dirname(MAIN), "tui", "hand-off.js");

/**
 * A process that reads its terminal as ink does (raw mode, a `readable` listener drained to
 * the end, which leaves a read pending), then on a key lets go of it (raw mode off, the
 * listener removed, `releaseInput`) and starts a child on the same terminal. The child waits
 * for the test's go before it reads, so keys typed before the go find only the parent's read.
 */
function parentScript(go: string): string {
  return `
import { spawn } from "node:child_process";
import { releaseInput } from ${JSON.stringify(HAND_OFF)};
const stdin = process.stdin;
stdin.setEncoding("utf8");
stdin.setRawMode(true);
let handedOff = false;
const onReadable = () => {
  let chunk;
  while ((chunk = stdin.read()) !== null) {
    if (handedOff) process.stdout.write("PARENT AGAIN:" + JSON.stringify(chunk) + "\\n");
    else if (chunk === "k") setImmediate(handOff);
  }
};
stdin.on("readable", onReadable);
process.stdout.write("PARENT READY\\n");
function handOff() {
  handedOff = true;
  stdin.setRawMode(false);
  stdin.off("readable", onReadable);
  const reclaim = releaseInput(stdin);
  const script = 'echo CHILD READY; while [ ! -e ${go} ]; do sleep 0.02; done; IFS= read -r x; echo "CHILD GOT:$x"';
  spawn("sh", ["-c", script], { stdio: "inherit" }).once("exit", () => {
    reclaim();
    stdin.setRawMode(true);
    stdin.on("readable", onReadable);
    process.stdout.write("PARENT BACK\\n");
  });
}
`;
}

let dir: string | undefined;
let pane: Pane | undefined;
afterEach(async () => {
  await pane?.kill();
  if (dir) await rm(dir, { recursive: true, force: true });
  pane = undefined;
  dir = undefined;
});

describe("releaseInput: the terminal handed to a child", () => {
  it("leaves the keys typed meanwhile to the child, and the parent reads again afterwards", async () => {
    dir = await mkdtemp(join(tmpdir(), "zeng-hand-off-"));
    const go = join(dir, "go");
    await writeFile(join(dir, "parent.mjs"), parentScript(go));
    pane = startPane([process.execPath, join(dir, "parent.mjs")], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir },
      cwd: dir,
    });
    await pane.waitFor("PARENT READY", 10_000);
    pane.type("k");
    await pane.waitFor("CHILD READY", 10_000);
    pane.type("typed meanwhile");
    pane.keys("Enter");
    await writeFile(go, "");
    await pane.waitFor("PARENT BACK", 10_000);
    expect(pane.screen()).toContain("CHILD GOT:typed meanwhile");
    pane.type("z");
    const again = await pane.waitFor("PARENT AGAIN:");
    expect(again).toContain('PARENT AGAIN:"z"');
    expect(again).not.toContain('PARENT AGAIN:"typed');
  }, 30_000);
});
