#!/usr/bin/env node
// zeng-web: the web UI over the user's sessions. Prints the page's address (with its one-time
// token) and serves until Ctrl-C.
import { startWebServer } from "./server/start.js";

const USAGE = `usage: zeng-web [--open] [--port N]

Starts the web UI on 127.0.0.1 and prints its address with a one-time token.
  --open     open the address in the default browser
  --port N   listen on port N (default: a random free port)
`;

function parse(argv: string[]): { open: boolean; port: number } | string {
  let open = false;
  let port = 0;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--open") open = true;
    else if (arg === "--port") {
      port = Number(argv[++i]);
      if (!Number.isInteger(port) || port < 0 || port > 65535) return "--port needs a number";
    } else if (arg === "--help" || arg === "-h") return "";
    else return `unknown argument ${arg}`;
  }
  return { open, port };
}

async function openBrowser(url: string): Promise<void> {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  // Through the engine's child-process door: no secret variable reaches the browser.
  const { childEnvironment, spawnChild } = await import("@z-engine/engine");
  const child = spawnChild({
    program: command,
    args: [url],
    folder: { path: process.cwd(), reason: "userChosen" },
    env: childEnvironment(process.env),
    stdio: "ignore",
  });
  child.on("error", () =>
    process.stderr.write(`could not start ${command}; open the address yourself\n`),
  );
  child.unref();
}

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  if (typeof args === "string") {
    process.stderr.write(args ? `${args}\n${USAGE}` : USAGE);
    return args ? 2 : 0;
  }
  // The settings' and the engine's modules come by dynamic import: the server listens and
  // prints its address while they load (start-up, README). An engine that cannot start ends
  // the process with its reason.
  const paths = import("@z-engine/config").then(({ resolvePaths }) => resolvePaths(process.env));
  const engine = Promise.all([paths, import("@z-engine/engine")]).then(([p, { createEngine }]) =>
    createEngine({ paths: p, catalogSource: "settings" }),
  );
  engine.catch((error: unknown) => {
    process.stderr.write(`zeng-web: the engine could not start: ${messageOf(error)}\n`);
    process.exit(1);
  });
  // Whether turns can reach a model at all: said at start and on every screen, not at the
  // first failed turn.
  const warning = Promise.all([paths, import("@z-engine/engine")]).then(
    ([p, { checkProviderKey }]) =>
      checkProviderKey({ env: process.env, paths: p, projectRoot: process.cwd() }).then(
        (r) => r.problem,
      ),
  );
  const server = await startWebServer({
    engine,
    dataDir: paths.then((p) => p.dataDir),
    port: args.port,
    warning,
  });
  process.stdout.write(`Z Engine web UI: ${server.url}\n`);
  void warning.then(
    (problem) => problem && process.stderr.write(`zeng-web: warning: ${problem}\n`),
    () => {},
  );
  if (args.open) void openBrowser(server.url);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  await (await engine).shutdown();
  return 0;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`zeng-web: ${messageOf(error)}\n`);
    process.exit(1);
  },
);
