import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  createFixtureRepo,
  type FakeProvider,
  type FixtureRepo,
  startFakeProvider,
  type WireFormat,
} from "@z-engine/testkit";
import { type CrashKind, crashModel } from "./model.js";

const require = createRequire(import.meta.url);

/** The zeng bin as users run it (the CLI's bundle). */
export const ZENG_BIN = join(
  dirname(fileURLToPath(import.meta.resolve("@z-engine/cli"))),
  "zeng.cjs",
);

/** server-everything's stdio entry. */
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");

/** The model the crash runs ask for; models.json makes its window small for compactions. */
export const CRASH_MODEL = "claude-sonnet-5-5";

/** One chain's world: a project, a home (data and config folders) and a fake provider. */
export interface CrashWorld {
  readonly kind: CrashKind;
  readonly format: WireFormat;
  readonly repo: FixtureRepo;
  readonly home: string;
  readonly dataDir: string;
  readonly configDir: string;
  readonly effectsFile: string;
  readonly provider: FakeProvider;
  /** The environment a host process runs with. */
  readonly env: Record<string, string>;
  /** Set by the harness: called when a compaction summary is asked for. */
  onSummary: (() => void) | undefined;
  /** The side-effect tokens written so far, in order. */
  effects(): Promise<string[]>;
  dispose(): Promise<void>;
}

function settingsFor(kind: CrashKind): string {
  const lines = ['[catalog]\nsource = "off"\n'];
  if (kind === "compaction") lines.push("[context]\ncompact_at_percent = 60\n");
  if (kind === "mcp")
    lines.push(
      `[mcp.servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n`,
    );
  return lines.join("\n");
}

/** A small context window for the compaction kind (the others keep the catalog's). */
const MODELS_JSON = JSON.stringify({
  [CRASH_MODEL]: { limit: { context: 24_000, output: 4_000 } },
});

/**
 * Builds a world for one chain of runs of `kind`: a git project with 150 small files (the
 * checkpoint kind rewrites them), settings (MCP for the mcp kind, early compaction and a small
 * window for the compaction kind), and a fake provider that plays the crash model.
 */
export async function crashWorld(kind: CrashKind, format: WireFormat): Promise<CrashWorld> {
  const files: Record<string, string> = { "README.md": "A crash world.\n" };
  for (let i = 1; i <= 150; i++) files[`files/f${i}.txt`] = `${i}\n`;
  const repo = await createFixtureRepo({ files });
  const home = await mkdtemp(join(tmpdir(), "zeng-crash-"));
  const dataDir = join(home, "data");
  const configDir = join(home, "config");
  await mkdir(configDir, { recursive: true });
  await writeFile(join(configDir, "settings.toml"), settingsFor(kind));
  if (kind === "compaction") await writeFile(join(configDir, "models.json"), MODELS_JSON);
  const effectsFile = join(home, "effects.log");
  let world: CrashWorld | undefined;
  const provider = await startFakeProvider({
    respond: crashModel({
      kind,
      effectsFile,
      projectRoot: repo.root,
      onSummary: () => world?.onSummary?.(),
    }),
  });
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ZENGINE_HOME: dataDir,
    ZENGINE_CONFIG_HOME: configDir,
    ZENGINE_PROVIDER: format,
    ZENGINE_BASE_URL: format === "anthropic" ? provider.anthropicBaseUrl : provider.openaiBaseUrl,
    ZENGINE_API_KEY: "test-key",
    ZENGINE_MODEL: CRASH_MODEL,
  };
  world = {
    kind,
    format,
    repo,
    home,
    dataDir,
    configDir,
    effectsFile,
    provider,
    env,
    onSummary: undefined,
    effects: async () =>
      (await readFile(effectsFile, "utf8").catch(() => "")).split("\n").filter(Boolean),
    dispose: async () => {
      await provider.close();
      await repo.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
  return world;
}
