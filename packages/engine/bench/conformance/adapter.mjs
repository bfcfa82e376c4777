// The client under test of the MCP conformance suite: Z Engine's own MCP client
// (@z-engine/integrations' McpConnection, its OAuth login with a scripted user agent) and,
// for tools_call and the elicitation scenario, a whole engine session with a scripted model
// whose call passes the permission gate. The suite runs it as `<this> <server-url>` with
// MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT) set; exit 0 means the client did
// its part (the suite's checks decide the verdict).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { McpConnection, McpTokenStore, startLoopback } from "@z-engine/integrations";
import { createFixtureRepo, followAuthorization, reply, ScriptedModel } from "@z-engine/testkit";
import { createEngine } from "@z-engine/engine";

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const url = process.argv[2] ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
/** The client ID metadata document the basic-cimd scenario expects (a fixed https URL). */
const CIMD_URL = "https://conformance-test.local/client-metadata.json";
const never = new AbortController().signal;

/** Ends the client with a failure the suite shows. */
function fail(why) {
  process.stderr.write(`adapter: ${scenario}: ${why}\n`);
  process.exit(1);
}

/** The OAuth settings a scenario's context gives (pre-registered or machine-to-machine clients). */
function oauthFor(name) {
  if (name === "auth/client-credentials-basic")
    return {
      grant: "client_credentials",
      clientId: context.client_id,
      clientSecret: context.client_secret,
    };
  if (name === "auth/client-credentials-jwt")
    return {
      grant: "client_credentials",
      clientId: context.client_id,
      privateKey: context.private_key_pem,
      ...(context.signing_algorithm ? { signingAlgorithm: context.signing_algorithm } : {}),
    };
  if (name === "auth/cross-app-access-complete-flow")
    return {
      grant: "jwt_bearer",
      clientId: context.client_id,
      clientSecret: context.client_secret,
      idpTokenEndpoint: context.idp_token_endpoint,
      idpClientId: context.idp_client_id,
      idpIdToken: context.idp_id_token,
    };
  if (name === "auth/pre-registration")
    return { clientId: context.client_id, clientSecret: context.client_secret };
  return { clientMetadataUrl: CIMD_URL };
}

/** A connection as zeng makes one; with `login`, a person (the scripted user agent) is at hand. */
async function connect(login) {
  const dir = await mkdtemp(join(tmpdir(), "zeng-conformance-"));
  const spec = { name: "conformance", type: "http", url, oauth: oauthFor(scenario) };
  const store = new McpTokenStore(join(dir, "mcp-auth"));
  const loopback = login ? await startLoopback() : undefined;
  const conn = new McpConnection({
    spec,
    env: {},
    cwd: dir,
    auth: {
      store,
      ...(loopback
        ? {
            login: {
              loopback,
              open: async (page) => void (await followAuthorization(page)),
              timeoutMs: 10_000,
              signal: never,
            },
          }
        : {}),
    },
  });
  await conn.start();
  if (conn.state !== "ready") fail(`${conn.state}: ${conn.error}`);
  return {
    conn,
    done: async () => {
      await conn.close();
      await loopback?.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Connects, calls the named tool (or the first one listed), closes. */
async function callOne(login, tool) {
  const { conn, done } = await connect(login);
  const name = tool ?? conn.tools[0]?.name;
  if (name) await conn.callTool(name, {}, { signal: never });
  await done();
}

/**
 * A whole session: the scripted model calls the server's tool through the gate (allowed by
 * `mcp__conformance`); a question card (an elicitation) is answered with no answers, so the
 * schema's defaults apply.
 */
async function session(tool, input) {
  const repo = await createFixtureRepo({ files: { "README.md": "# conformance\n" } });
  const home = await mkdtemp(join(tmpdir(), "zeng-conformance-home-"));
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
  };
  const paths = resolvePaths(env);
  await mkdir(paths.configDir, { recursive: true });
  await writeFile(
    paths.userSettingsFile,
    `[permissions]\nallow = ["mcp__conformance"]\n\n[mcp.servers.conformance]\nurl = ${JSON.stringify(url)}\n`,
  );
  const model = new ScriptedModel([
    reply.toolCall(`mcp__conformance__${tool}`, input),
    reply.text("done"),
  ]);
  const fast = new ScriptedModel([reply.text("Title")]);
  let handle;
  const engine = await createEngine({
    paths,
    env,
    homeDir: home,
    catalogSource: "off",
    repoMap: false,
    clientFactory: ({ role }) => (role === "fast" ? fast : model),
    onEvent: (e) => {
      // As a host answers a card: after the event, once the question waits.
      const event = e.event;
      if (event.type === "questionAsked")
        setImmediate(() =>
          handle?.send({ type: "answerQuestion", questionId: event.question.id, answers: {} }),
        );
    },
  });
  try {
    handle = await engine.createSession(repo.root);
    await handle.mcp.settled();
    const summary = await handle.run(`call ${tool}`);
    if (summary.outcome !== "completed") fail(`the turn ended ${summary.outcome}`);
    const last = model.requests.at(-1)?.messages.at(-1);
    const result = last?.content.find((b) => b.type === "toolResult");
    if (result?.type !== "toolResult" || result.isError)
      fail(`the tool call failed: ${JSON.stringify(result)}`);
  } finally {
    await engine.shutdown();
    await repo.dispose();
    await rm(home, { recursive: true, force: true });
  }
}

async function main() {
  if (!url) fail("no server URL");
  if (scenario === "tools_call") return session("add_numbers", { a: 2, b: 3 });
  if (scenario === "elicitation-sep1034-client-defaults")
    return session("test_client_elicitation_defaults", {});
  if (scenario === "sse-retry") return callOne(false, "test_reconnection");
  if (scenario === "initialize")
    return callOne(false, undefined).catch(() => fail("no connection"));
  if (scenario.startsWith("auth/client-credentials") || scenario.startsWith("auth/cross-app"))
    return callOne(false);
  if (scenario.startsWith("auth/")) return callOne(true);
  return callOne(false);
}

main().then(
  () => process.exit(0),
  (error) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)),
);
