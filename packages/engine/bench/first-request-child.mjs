// The host side of engine.firstRequest: imports the built engine, opens a session and sends
// a prompt; the built-in Anthropic client talks to the fake provider named in the env.
const { createEngine } = await import("../dist/index.js");
const { resolvePaths } = await import("@z-engine/config");
const env = { ...process.env };
const engine = await createEngine({ paths: resolvePaths(env), env, catalogSource: "off" });
const session = await engine.createSession(process.cwd(), { mode: "bypass" });
await session.run("hi");
await engine.shutdown();
