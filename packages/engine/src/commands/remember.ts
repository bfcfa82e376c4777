import { constants } from "node:fs";
import { access, lstat, mkdir, open } from "node:fs/promises";
import { dirname, join } from "node:path";
import { decide } from "@z-engine/policy";
import { realPath } from "@z-engine/tools";
import { effectiveRules } from "../batch/gate.js";
import type { CommandHost } from "./host.js";

const { O_APPEND, O_CREAT, O_NOFOLLOW, O_NONBLOCK, O_RDWR } = constants;

/**
 * Appends `line` to the regular file at `real` (a real path): opened with `O_NOFOLLOW |
 * O_NONBLOCK`, so a link put there is not followed and a FIFO cannot block; a newline goes
 * first when the file does not end with one. Rejects with a message when it is not a regular
 * file with a single link.
 */
async function appendLine(real: string, line: string): Promise<void> {
  await mkdir(dirname(real), { recursive: true });
  const handle = await open(real, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o644);
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.nlink > 1)
      throw new Error(`${real} is not a regular file with a single link`);
    const last = Buffer.alloc(1);
    if (info.size > 0) await handle.read(last, 0, 1, info.size - 1);
    const gap = info.size === 0 || last[0] === 0x0a ? "" : "\n";
    await handle.write(`${gap}${line}`);
  } finally {
    await handle.close();
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The file `/remember` writes: with `--user`, the user's AGENTS.md in the engine's config
 * folder; otherwise the project's AGENTS.md, or its CLAUDE.md when only that one exists.
 */
export async function rememberTarget(host: CommandHost, user: boolean): Promise<string> {
  if (user) return join(host.userConfigDir, "AGENTS.md");
  const agents = join(host.projectRoot, "AGENTS.md");
  const claude = join(host.projectRoot, "CLAUDE.md");
  if (!(await exists(agents)) && (await exists(claude))) return claude;
  return agents;
}

/**
 * `/remember [--user] <note>`: appends `- <note>` to the instructions file once the Write gate
 * allows it without asking (a command cannot wait for an approval: it answers with what to
 * allow instead). The instructions are re-read at the next turn.
 */
export async function rememberNote(host: CommandHost, args: string): Promise<string> {
  const user = /^--user(\s|$)/.test(args.trim());
  const note = (user ? args.trim().slice("--user".length) : args).trim().replace(/\s+/g, " ");
  if (note === "") return "Usage: `/remember [--user] <note>`";
  const file = await rememberTarget(host, user);
  // The gate sees where the file really is (a linked AGENTS.md leads elsewhere), and the
  // append goes there without following any link.
  const real = await realPath(file, host.projectRoot);
  const linked = await lstat(real).then(
    (info) => info.isFile() && info.nlink > 1,
    () => false,
  );
  if (linked)
    return `Not remembered: ${file} has other hard links, so writing it would change files nobody named.`;
  const paths = real === file ? [file] : [real, file];
  const decision = decide(
    { toolName: "Write", actions: [{ kind: "write", paths }] },
    host.mode,
    effectiveRules(host),
    {
      projectRoot: host.projectRoot,
      additionalDirectories: host.additionalDirectories,
      homeDir: host.homeDir,
      autoAllowReadOnlyBash: false,
      engineDirs: host.engineDirs.filter((d) => d !== host.userConfigDir),
    },
  );
  if (decision.type !== "allow")
    return `Not remembered: writing ${file} is not allowed without asking (${decision.reason}). Allow \`Edit(${file})\` or use the acceptEdits mode.`;
  try {
    await appendLine(real, `- ${note}\n`);
  } catch (error) {
    return `Not remembered: ${file} could not be written (${(error as Error).message}).`;
  }
  host.reloadInstructions();
  return `Remembered in ${file}: ${note}`;
}
