// zod without its JIT, for this process (issue 18). zod compiles each object schema's parser
// with `new Function` at the schema's first parse: a fraction of a millisecond each, code no
// code cache keeps, and the CLI parses most of its schemas once or a few times (settings,
// the command it sends, each tool's first input). Interpreted parsing of the same schemas
// is a few microseconds slower per parse, and `zeng -p` reaches its first request about 5 ms
// of CPU sooner (README, "Start-up"). zod reads the switch when a schema is built, so this
// module is imported before anything that builds one; an embedder's own process keeps
// zod's default (the engine's packages never set it).
import { config } from "zod";

config({ jitless: true });
