import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { type Env, resolvePaths } from "@z-engine/config";
import { createEngine, type SessionHandle } from "@z-engine/engine";
import type { ApprovalDecision, EventEnvelope } from "@z-engine/protocol";
import { createFixtureRepo, reply, ScriptedModel } from "@z-engine/testkit";
import { DEMO_PROMPT, LOGIN_PROJECT, walkthroughScript } from "./demo-project.js";
import { DemoPrinter, demoFooter } from "./demo-render.js";
import { EXIT } from "./exit-codes.js";
import type { Io } from "./output/result.js";

/** Whether `program` is an executable file on the PATH. */
async function onPath(program: string, env: Env): Promise<boolean> {
  const { access, constants } = await import("node:fs/promises");
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const ok = await access(join(dir, program), constants.X_OK).then(
      () => true,
      () => false,
    );
    if (ok) return true;
  }
  return false;
}

/** The walkthrough's answers: "Always allow in this chat" for the test command, "Allow once" for the rest. */
function answer(toolName: string, suggestedRules: readonly string[]): ApprovalDecision {
  if (toolName === "Verify")
    return { type: "allowSession", rule: suggestedRules[0] ?? "Bash(npm test:*)" };
  return { type: "allowOnce" };
}

/** A private home for the demo: config and data folders that are never the user's. */
async function demoHome(env: Env) {
  const home = await mkdtemp(join(tmpdir(), "zeng-demo-home-"));
  const demoEnv: Record<string, string> = {
    PATH: env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ZENGINE_CONFIG_HOME: join(home, "config"),
    ZENGINE_HOME: join(home, "data"),
  };
  for (const name of ["LANG", "TERM", "TMPDIR"]) {
    const value = env[name];
    if (value) demoEnv[name] = value;
  }
  const paths = resolvePaths(demoEnv);
  await mkdir(paths.configDir, { recursive: true });
  await writeFile(paths.userSettingsFile, '[catalog]\nsource = "off"\n');
  return { home, env: demoEnv, paths };
}

function intro(io: Io, root: string): void {
  io.stdout(
    [
      'Z Engine demo: "fix the failing test" (how-it-works.md), with a scripted model: no key, no network.',
      `Project: ${root} (an npm project whose login test fails)`,
      "Mode: ask. The demo answers the approval cards the way the walkthrough does.",
      "",
      `You: ${DEMO_PROMPT}`,
      "",
    ].join("\n"),
  );
}

/**
 * `zeng demo`: the walkthrough on a fresh fixture repository with testkit's ScriptedModel
 * and a temporary data and config folder, printed round by round, then the badge. Removes
 * its temporary folders. Resolves 0 when the turn completed Verified, 1 otherwise (or when
 * git or npm is missing).
 */
export async function runDemo(io: Io, env: Env): Promise<number> {
  for (const program of ["git", "npm"]) {
    if (!(await onPath(program, env))) {
      io.stderr(`zeng demo: needs ${program} on the PATH\n`);
      return EXIT.failed;
    }
  }
  const repo = await createFixtureRepo({ files: LOGIN_PROJECT, prefix: "zeng-demo-" });
  const home = await demoHome(env);
  const model = new ScriptedModel(walkthroughScript((p) => repo.path(p)));
  const titles = new ScriptedModel([reply.text("Fix the failing login test")]);
  const printer = new DemoPrinter(io.stdout, (text) =>
    text.split(`${repo.root}/`).join("").split(repo.root).join("."),
  );
  let session: SessionHandle | undefined;
  const onEvent = ({ event }: EventEnvelope) => {
    printer.print(event);
    if (event.type === "approvalRequested") {
      const decision = answer(event.toolName, event.suggestedRules);
      queueMicrotask(() =>
        session?.send({ type: "resolveApproval", approvalId: event.approvalId, decision }),
      );
    }
  };
  const engine = await createEngine({
    paths: home.paths,
    env: home.env,
    onEvent,
    clientFactory: ({ role }) => (role === "fast" ? titles : model),
    catalogSource: "off",
    homeDir: home.home,
  });
  try {
    intro(io, repo.root);
    session = await engine.createSession(repo.root, { mode: "ask" });
    const summary = await session.run(DEMO_PROMPT);
    io.stdout(demoFooter(summary));
    return summary.outcome === "completed" && summary.badge.status === "verified"
      ? EXIT.ok
      : EXIT.failed;
  } finally {
    await engine.shutdown();
    await repo.dispose();
    await rm(home.home, { recursive: true, force: true });
  }
}
