#!/usr/bin/env node
// The `zeng` bin (bundled into dist/zeng.cjs by scripts/bundle.mjs): a CommonJS front that
// runs `zeng -p` itself and hands every other command to the ES module CLI beside it
// (dist/main.js, src/cli.ts). Why: Node starts a CommonJS entry without its ES module
// loader, about 7 ms of CPU less than an ES module entry, and the headless bundle is
// CommonJS already (src/code-cache.ts), so `zeng -p` never needs that loader before its
// first request (README, "Start-up").
import { parseArgs } from "./args.js";
import { exitAfterFlush, io, runToExit } from "./entry-io.js";
import { EXIT } from "./exit-codes.js";
import { startHeadless } from "./headless-start.js";

const parsed = parseArgs(process.argv.slice(2));
if (parsed.ok && parsed.command.kind === "headless") {
  const { args } = parsed.command;
  runToExit(() => startHeadless(args, io, process.env));
} else {
  // The ES module CLI parses the same arguments again (and reports a bad one).
  import(new URL("./main.js", import.meta.url).href).catch((error: unknown) => {
    io.stderr(`zeng: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    exitAfterFlush(EXIT.failed);
  });
}
