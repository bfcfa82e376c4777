import { access, appendFile, mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { decide } from "@z-engine/policy";
import { effectiveRules } from "../batch/gate.js";
import type { CommandHost } from "./host.js";

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
  const decision = decide(
    { toolName: "Write", actions: [{ kind: "write", paths: [file] }] },
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
  const before = await readFile(file, "utf8").catch(() => "");
  const gap = before === "" || before.endsWith("\n") ? "" : "\n";
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, `${gap}- ${note}\n`);
  host.reloadInstructions();
  return `Remembered in ${file}: ${note}`;
}
