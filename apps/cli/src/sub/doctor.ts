import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type Env, resolvePaths } from "@z-engine/config";
import { createEngine, type Diagnosis, diagnose } from "@z-engine/engine";
import { EXIT } from "../exit-codes.js";
import type { Io } from "../output/result.js";

const MARK = { ok: "ok  ", warn: "warn", fail: "FAIL" } as const;

async function mcpLines(folder: string, env: Env): Promise<Diagnosis[]> {
  const engine = await createEngine({
    paths: resolvePaths(env),
    env,
    catalogSource: "off",
    headless: true,
  });
  try {
    const check = await engine.checkMcpServers(folder);
    const out: Diagnosis[] = check.servers.map((s) => ({
      name: `mcp ${s.name}`,
      status: s.state === "ready" ? "ok" : "fail",
      detail: `${s.transport}: ${s.state}${s.error ? `: ${s.error}` : `, ${s.tools} tools`}`,
    }));
    if (check.withheld)
      out.push({
        name: "mcp",
        status: "warn",
        detail: "the project's own servers start once the folder is trusted",
      });
    return out;
  } finally {
    await engine.shutdown();
  }
}

/**
 * `zeng doctor [--cwd DIR]`: one line per check (key, provider, git, sandbox, ripgrep, trust,
 * settings problems, each MCP server). Resolves 0 when nothing failed, 1 when something did,
 * 2 for bad usage.
 */
export async function runDoctor(argv: readonly string[], io: Io, env: Env): Promise<number> {
  const cwdAt = argv.indexOf("--cwd");
  const stray = argv.find((_word, i) => cwdAt < 0 || (i !== cwdAt && i !== cwdAt + 1));
  if (stray !== undefined || (cwdAt >= 0 && argv[cwdAt + 1] === undefined)) {
    io.stderr(
      `zeng: doctor takes only --cwd DIR${stray ? ` (got ${JSON.stringify(stray)})` : ""}\n`,
    );
    return EXIT.usage;
  }
  const folder = resolve(cwdAt >= 0 ? (argv[cwdAt + 1] as string) : process.cwd());
  if (!(await stat(folder).catch(() => undefined))?.isDirectory()) {
    io.stderr(`zeng: doctor: ${folder}: no such folder\n`);
    return EXIT.usage;
  }
  const lines = [
    ...(await diagnose({ paths: resolvePaths(env), env, projectRoot: folder })),
    ...(await mcpLines(folder, env)),
  ];
  for (const d of lines) io.stdout(`${MARK[d.status]}  ${d.name}: ${d.detail}\n`);
  return lines.some((d) => d.status === "fail") ? EXIT.failed : EXIT.ok;
}
