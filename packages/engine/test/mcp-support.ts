import { readFileSync } from "node:fs";
import type { ModelRequest, ToolResultBlock } from "@z-engine/protocol";
import { MCP_TEST_SERVER } from "@z-engine/testkit";
import { type Harness, resultsOf } from "./harness.js";

export { resultsOf };

const q = (s: string) => JSON.stringify(s);

/** `[mcp.servers.<name>]` for the SDK test server, with extra args and env. */
export function testServerToml(
  name: string,
  options: { args?: string[]; env?: Record<string, string>; extra?: string } = {},
): string {
  const args = [MCP_TEST_SERVER, ...(options.args ?? [])].map(q).join(", ");
  const env = Object.entries(options.env ?? {})
    .map(([k, v]) => `${k} = ${q(v)}`)
    .join(", ");
  return [
    `[mcp.servers.${q(name)}]`,
    `command = ${q(process.execPath)}`,
    `args = [${args}]`,
    ...(env ? [`env = { ${env} }`] : []),
    ...(options.extra ? [options.extra] : []),
    "",
  ].join("\n");
}

/** Resolves once the server reports `state` in an mcpServerUpdated event. */
export function serverState(h: Harness, name: string, state: string, timeoutMs = 20_000) {
  return h.recorder.waitFor("mcpServerUpdated", { server: { name, state } }, { timeoutMs });
}

/** The tool names a request offered. */
export const toolNames = (r: ModelRequest | undefined) => (r?.tools ?? []).map((t) => t.name);

/** The text of a tool result. */
export const resultText = (r: ToolResultBlock | undefined) =>
  (r?.content ?? []).map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");

/** The lines the test server logged (MCP_TEST_LOG). */
export function logLines(file: string): string[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/** Resolves once `check` holds (polls every 20 ms; rejects after 15 s). */
export async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
