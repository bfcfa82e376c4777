// A host's world for the tests: a fixture repo, a temporary home and the fake provider,
// reached through `options.env` as a host would point the Agent SDK at an endpoint.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createFixtureRepo,
  type FakeProvider,
  type FakeProviderRequest,
  type FixtureRepo,
  type ScriptReply,
  type ScriptResponse,
  startFakeProvider,
  when,
} from "@z-engine/testkit";
import type { SDKMessage, SDKResultMessage, SDKUserMessage } from "../src/index.js";

/** True for the main agent's requests (they offer tools); title requests offer none. */
export function isMain(request: FakeProviderRequest): boolean {
  const tools = (request.body as { tools?: unknown[] }).tools;
  return Array.isArray(tools) && tools.length > 0;
}

/** A response for main-agent requests only. */
export const main = (response: ScriptReply): ScriptResponse<FakeProviderRequest> =>
  when(isMain, response);

/** What a test holds: the repo, the provider and the env a host passes as `options.env`. */
export interface World {
  readonly repo: FixtureRepo;
  readonly provider: FakeProvider;
  readonly env: Record<string, string>;
  mainRequests(): FakeProviderRequest[];
  dispose(): Promise<void>;
}

/** A world whose provider speaks Anthropic's wire format (`openai` for the other). */
export async function world(
  options: { format?: "anthropic" | "openai"; files?: Record<string, string> } = {},
): Promise<World> {
  const format = options.format ?? "anthropic";
  const repo = await createFixtureRepo({ files: options.files ?? { "README.md": "# demo\n" } });
  const home = await mkdtemp(join(tmpdir(), "agent-sdk-home-"));
  const provider = await startFakeProvider();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
    ZENGINE_PROVIDER: format,
    ZENGINE_BASE_URL: format === "anthropic" ? provider.anthropicBaseUrl : provider.openaiBaseUrl,
    ZENGINE_API_KEY: "test-key",
  };
  await mkdir(join(home, "config"), { recursive: true });
  return {
    repo,
    provider,
    env,
    mainRequests: () => provider.requests.filter(isMain),
    dispose: async () => {
      await provider.close();
      await repo.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** Every message of a query, in order. */
export async function collect(messages: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const m of messages) out.push(m);
  return out;
}

/** Writes a file into the world's user settings (settings.toml). */
export async function userSettings(w: World, toml: string): Promise<void> {
  await writeFile(join(w.env.ZENGINE_CONFIG_HOME ?? "", "settings.toml"), toml);
}

/** The first `result` message. */
export const resultOf = (messages: readonly SDKMessage[]): SDKResultMessage | undefined =>
  messages.find((m): m is SDKResultMessage => m.type === "result");

/** Every `result` message, in order. */
export const results = (messages: readonly SDKMessage[]): SDKResultMessage[] =>
  messages.filter((m): m is SDKResultMessage => m.type === "result");

/** The tool result blocks of the `user` messages, in order. */
export const toolResults = (messages: readonly SDKMessage[]) =>
  messages
    .filter((m): m is SDKUserMessage => m.type === "user")
    .flatMap((m) => (Array.isArray(m.message.content) ? m.message.content : []));
