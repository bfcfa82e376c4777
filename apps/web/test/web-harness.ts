// An engine over a fixture repository with scripted models, the web server over it, and one
// headless Chromium (Debian's) driven by playwright-core.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { createEngine, type Engine } from "@z-engine/engine";
import {
  createFixtureRepo,
  type FixtureFiles,
  type FixtureRepo,
  reply,
  type ScriptResponse,
  ScriptedModel,
} from "@z-engine/testkit";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { startWebServer, type WebServer } from "../src/index.js";

/** Debian's Chromium with the flags versions.md lists. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** A test file's browser: see {@link sharedBrowser}. */
export interface TestBrowser {
  /** Run after the current test, last pushed first (fixtures, contexts). */
  readonly cleanup: Array<() => Promise<void>>;
  /** A new page in a browser context of its own, closed after the test. */
  page(viewport?: { width: number; height: number }): Promise<Page>;
}

/**
 * Registers a test file's browser hooks: one Chromium launched before its tests and closed
 * after them, and after each test its cleanups run. Call at the top level of the file.
 */
export function sharedBrowser(viewport = { width: 1280, height: 900 }): TestBrowser {
  let browser: Browser | undefined;
  const cleanup: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  return {
    cleanup,
    async page(size = viewport) {
      if (!browser) throw new Error("sharedBrowser: the browser is not launched yet");
      const context = await browser.newContext({ viewport: size });
      cleanup.push(() => context.close());
      return context.newPage();
    },
  };
}

export interface WebFixture {
  readonly repo: FixtureRepo;
  engine: Engine;
  server: WebServer;
  model: ScriptedModel;
  readonly dataDir: string;
  /** Stops the server and the engine and starts new ones over the same folders (a new model). */
  restart(script: readonly ScriptResponse[]): Promise<void>;
  dispose(): Promise<void>;
}

/** Starts everything; `script` is the main model's responses in order. */
export async function startFixture(options: {
  files: FixtureFiles;
  script: readonly ScriptResponse[];
  settings?: Readonly<Record<string, unknown>>;
  /** The server's folder (new sessions default to it); default the fixture repository. */
  cwd?: string;
  /** The warning the server shows on every screen. */
  warning?: string;
  /** The fast model's script (titles, compaction summaries); default: titles. */
  fastScript?: readonly ScriptResponse[];
  /** Build the repo map (default off: most tests want no background parsing). */
  repoMap?: boolean;
}): Promise<WebFixture> {
  const home = await mkdtemp(join(tmpdir(), "zeng-web-"));
  const repo = await createFixtureRepo({ files: options.files });
  const paths = resolvePaths({
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
  });
  await mkdir(paths.dataDir, { recursive: true });
  const boot = async (script: readonly ScriptResponse[]) => {
    const model = new ScriptedModel([...script]);
    const titles = new ScriptedModel(
      options.fastScript
        ? [...options.fastScript]
        : Array.from({ length: 8 }, () => reply.text("Fix the login bug")),
    );
    const engine = await createEngine({
      paths,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
      homeDir: home,
      clientFactory: ({ role }) => (role === "fast" ? titles : model),
      repoMap: options.repoMap ?? false,
      ...(options.settings ? { settings: options.settings } : {}),
    });
    const server = await startWebServer({
      engine,
      dataDir: paths.dataDir,
      publicDir: PUBLIC_DIR,
      cwd: options.cwd ?? repo.root,
      ...(options.warning ? { warning: options.warning } : {}),
    });
    return { model, engine, server };
  };
  const stop = async (f: WebFixture) => {
    await f.server.close();
    await f.engine.shutdown();
  };
  const fixture: WebFixture = {
    repo,
    ...(await boot(options.script)),
    dataDir: paths.dataDir,
    restart: async (script) => {
      await stop(fixture);
      Object.assign(fixture, await boot(script));
    },
    dispose: async () => {
      await stop(fixture);
      await repo.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
  return fixture;
}

/** Opens the page, starts a session in the fixture's folder and waits for its composer. */
export async function newSession(page: Page, fixture: WebFixture): Promise<void> {
  await page.goto(fixture.server.url);
  await page.getByLabel("New session in folder").fill(fixture.repo.root);
  await page.getByRole("button", { name: "Start" }).click();
  await page.getByLabel("Message").waitFor();
  await page.getByTestId("connection").filter({ hasText: "live" }).waitFor();
}

/** Opens a side panel tab (on narrow screens the panel is a sheet the header's Details opens). */
export async function openTab(
  page: Page,
  name: "Overview" | "Changes" | "Agents" | "Context",
): Promise<void> {
  const tab = page.getByRole("tab", { name: new RegExp(`^${name}`) });
  if (!(await tab.isVisible())) await page.getByRole("button", { name: "Details" }).click();
  await tab.click();
}

/** The bundled bin, as a user starts it. */
export const BIN = join(import.meta.dirname, "..", "dist", "main.js");

/** Starts `zeng-web` with a home of its own (`home`: data, config), in `cwd`. The caller kills it. */
export function spawnBin(home: string, cwd = home, stderr: "pipe" | "inherit" = "pipe") {
  return spawn(process.execPath, [BIN], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      ZENGINE_HOME: join(home, "data"),
      ZENGINE_CONFIG_HOME: join(home, "config"),
    },
    stdio: ["ignore", "pipe", stderr],
  });
}

/** Types a prompt and sends it. */
export async function send(page: Page, text: string): Promise<void> {
  const box = page.locator(".composer textarea");
  await box.fill(text);
  await box.press("Enter");
}

/** The page the tests serve: bundled from ui/ by the global setup. */
export const PUBLIC_DIR = join(import.meta.dirname, "..", "dist", "public");

export const SCREENSHOTS = join(import.meta.dirname, "..", "screenshots");
