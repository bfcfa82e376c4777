// zod without its JIT, for `zeng -p`'s process (issue 18). zod compiles each object schema's
// parser with `new Function` at the schema's first parse: a fraction of a millisecond each,
// code no code cache keeps, and `zeng -p` parses most of its schemas once or a few times
// (settings, the command it sends, each tool's first input). Interpreted parsing of the same
// schemas is a few microseconds slower per parse, and `zeng -p` reaches its first request
// about 5 ms of CPU sooner (README, "Start-up"). zod reads the switch when a schema is
// built, so headless.ts imports this module before anything that builds one. The
// interactive screen keeps zod's default: importing zod before its first paint cost it
// about 55 ms (`tui.ready`), and an embedder's own process keeps it too (no package sets it).
import { config } from "zod";

config({ jitless: true });
