/**
 * @z-engine/testkit: the shared fakes every package tests with. Everything exported here
 * is public API.
 */

// Fixture repositories
export type { FixtureFile, FixtureFiles, FixtureRepo, FixtureRepoOptions } from "./fixture-repo.js";
export { createFixtureRepo, fixtureGitEnv } from "./fixture-repo.js";
/**
 * `plainFileReader()`: a ProjectFileReader over plain `node:fs` (no roots, no rules, links
 * listed as links, never followed by `list`) for tests of code that is handed the engine's
 * project-files door. Not a door: never hand it to code reading a project you do not trust.
 */
export { plainFileReader } from "./plain-files.js";

// Event recording
export type { ExpectedEvent, Shape } from "./event-recorder.js";
export { EventRecorder, matchesShape } from "./event-recorder.js";

// Model scripts: shared by ScriptedModel and the fake provider
export type {
  ReplyOptions,
  ScriptFault,
  ScriptReply,
  ScriptResponse,
  ScriptToolCall,
  WireOptions,
} from "./model-script.js";
export {
  /** Whole scripted responses: `reply.text("done")`, `reply.toolCalls([...])`, `reply.error(kind)`, `reply.fault(f)`, `reply.of(...parts)`. */
  reply,
  /** Single events to compose with `reply.of`: `part.text`, `part.thinking`, `part.toolCall`, `part.usage`, `part.error`, `part.stop`. */
  part,
  /** A response that answers only the requests its predicate accepts. */
  when,
  /** The events a response plays (a `stop` appended when none is terminal). */
  responseEvents,
} from "./model-script.js";

// The in-process scripted model
export type { ScriptedModelOptions } from "./scripted-model.js";
export {
  /** A ModelClient that plays a script and records every request; never throws. */
  ScriptedModel,
  /** The error a real client ends with after a scripted fault. */
  faultError,
} from "./scripted-model.js";

// The fake provider (real HTTP, both wire formats) and the fake catalog
export type {
  FakeProvider,
  FakeProviderOptions,
  FakeProviderRequest,
  WireFormat,
} from "./fake-provider/server.js";
export {
  /** Starts the fake Anthropic/OpenAI-compatible server on 127.0.0.1; see its JSDoc. */
  startFakeProvider,
} from "./fake-provider/server.js";
export type {
  CatalogAnswer,
  CatalogDocument,
  CatalogModelEntry,
  FakeCatalog,
} from "./fake-catalog.js";
export {
  /** A small models.dev-format catalog for tests. */
  sampleCatalog,
  /** Starts a fake models.dev catalog server on 127.0.0.1. */
  startFakeCatalog,
} from "./fake-catalog.js";

// Processes
export {
  /** Whether a process still runs (a zombie counts as gone). */
  processAlive,
  /** Waits until a process is gone; false after the timeout. */
  waitForProcessExit,
} from "./processes.js";

// An engine for tests (the engine factory is handed in: testkit imports only protocol)
export type {
  EngineFactory,
  TestableEngine,
  TestEngine,
  TestEngineFactoryOptions,
  TestEngineOptions,
} from "./test-engine.js";
export { createTestEngine } from "./test-engine.js";

// ACP: a fake editor on the protocol's own client side
export type {
  AcpTestClient,
  AcpTestClientOptions,
  PendingPermission,
  PermissionAnswer,
  SpawnedAgent,
} from "./acp-client.js";
export {
  /** Connects a fake editor (buffers, real terminals, permission requests the test answers) to an ACP agent. */
  connectAcpTestClient,
  /** Starts an ACP agent as a child over stdio, as an editor does. */
  spawnAcpAgent,
} from "./acp-client.js";
export type { TestTerminal } from "./acp-terminals.js";
export { TestTerminals } from "./acp-terminals.js";

// MCP
export {
  /** A scripted user agent for OAuth logins: follows redirects to the loopback callback. */
  followAuthorization,
  /** The path of the MCP test server (stdio, `--http`, `--sse`), to start with `node`. */
  MCP_TEST_SERVER,
  /** The path of the OAuth-protected MCP test server (the SDK's authorization server pieces). */
  OAUTH_MCP_SERVER,
  type RunningHttpServer,
  /** Starts an HTTP test server in a child process; resolves once it listens. */
  startHttpMcpServer,
} from "./mcp-test-server.js";

// Session stores
/** `createMemoryStore()`: a whole `SessionStore` in memory (tests, ephemeral hosts), with `records(id)` to look inside. */
export { createMemoryStore } from "./memory-store.js";
export type { MemoryStore } from "./memory-store.js";
/**
 * `await runStoreConformance(name, factory)` at the top level of a vitest file: the suite
 * every `SessionStore` must pass (vitest is an optional peer dependency, loaded on demand).
 */
export { runStoreConformance } from "./store-conformance.js";
export type { StoreUnderTest } from "./store-conformance.js";
