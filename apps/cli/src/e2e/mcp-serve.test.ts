import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { main, type World, world } from "./cli.test.helpers.js";
import {
  type HttpServe,
  mcpClients,
  runClient,
  runInspector,
  serveCommand,
  startHttpServe,
} from "./mcp-clients.test.helpers.js";

let w: World | undefined;
let serve: HttpServe | undefined;
afterEach(async () => {
  await serve?.stop();
  await w?.dispose();
  w = serve = undefined;
});

const BASELINE = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../packages/mcp-server/conformance/expected-failures.yaml",
);

const BUGGY = { "src/add.js": "export const add = (a, b) => a - b;\n" };

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
});

/** One raw POST of `initialize` to the endpoint; resolves with the status. */
function postInitialize(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(INITIALIZE);
  });
}

/** The inspector's CLI (a real MCP client) against `zeng mcp serve` over stdio. */
async function inspect(w: World, serveArgs: readonly string[], method: readonly string[]) {
  const run = await runInspector([...serveCommand(w, serveArgs), "--method", ...method]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe("zeng mcp serve under the MCP protocol's own clients", () => {
  it("the inspector's CLI lists task and reply over stdio", async () => {
    w = await world({ format: "anthropic", files: BUGGY });
    const listed = await inspect(w, [], ["tools/list"]);
    const names = (listed.tools as Array<{ name: string }>).map((t) => t.name).sort();
    expect(names).toEqual(["reply", "task"]);
  });

  it("the inspector's task call fixes the fixture end to end (acceptEdits)", async () => {
    w = await world({ format: "anthropic", files: BUGGY });
    const file = w.repo.path("src/add.js");
    w.provider.push(main(reply.toolCall("Read", { file_path: file })));
    w.provider.push(
      main(reply.toolCall("Edit", { file_path: file, old_string: "a - b", new_string: "a + b" })),
    );
    w.provider.push(main(reply.text("Fixed add: it subtracted.")));
    const result = await inspect(
      w,
      ["--permission-mode", "acceptEdits"],
      ["tools/call", "--tool-name", "task", "--tool-arg", `prompt=Fix add in ${file}`],
    );
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      outcome: "completed",
      answer: expect.stringContaining("Fixed add"),
      changedFiles: [expect.stringContaining("src/add.js")],
    });
    expect(await readFile(file, "utf8")).toBe("export const add = (a, b) => a + b;\n");
  });

  it("in a folder whose settings allow nothing, a task asking for bypass changes no file", async () => {
    w = await world({ format: "anthropic", files: BUGGY });
    const file = w.repo.path("src/add.js");
    w.provider.push(main(reply.toolCall("Write", { file_path: file, content: "pwned\n" })));
    w.provider.push(main(reply.text("Could not write.")));
    const result = await inspect(
      w,
      [],
      [
        "tools/call",
        "--tool-name",
        "task",
        "--tool-arg",
        `prompt=Overwrite ${file}`,
        "permission_mode=bypass",
      ],
    );
    expect(result.structuredContent).toMatchObject({ changedFiles: [], mode: "ask" });
    // The model did ask for the write: the gate denied it (headless, nothing allowed).
    expect(w.mainRequests()).toHaveLength(2);
    expect(JSON.stringify(w.mainRequests()[1]?.body)).toMatch(/denied|not allowed|refused/i);
    expect(await readFile(file, "utf8")).toBe(BUGGY["src/add.js"]);
  });

  it("over HTTP, a request without the token or with a wrong one is refused; with it, MCP answers", async () => {
    w = await world({ format: "anthropic", files: BUGGY });
    serve = await startHttpServe(w);
    expect(await postInitialize(serve.url, {})).toBe(401);
    expect(await postInitialize(serve.url, { authorization: "Bearer wrong" })).toBe(401);
    expect(await postInitialize(`${serve.url}?token=wrong`, {})).toBe(401);
    expect(await postInitialize(serve.url, { authorization: `Bearer ${serve.token}` })).toBe(200);
    expect(
      await postInitialize(serve.url, {
        authorization: `Bearer ${serve.token}`,
        host: "evil.example:80",
      }),
    ).toBe(403);
    const listed = await runInspector([
      serve.url,
      "--header",
      `Authorization: Bearer ${serve.token}`,
      "--method",
      "tools/list",
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('"task"');
    const refused = await runInspector([serve.url, "--method", "tools/list"]);
    expect(refused.code).not.toBe(0);
  });

  it("passes the conformance suite's server scenarios that apply; the rest are the baseline's, with reasons", async () => {
    w = await world({ format: "anthropic", files: BUGGY });
    serve = await startHttpServe(w);
    const { node22, conformance } = mcpClients();
    const run = await runClient(
      node22,
      [conformance, "server", "--url", serve.urlWithToken, "--expected-failures", BASELINE],
      w.repo.root,
      120_000,
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    for (const scenario of [
      "server-initialize",
      "ping",
      "tools-list",
      "resources-list",
      "dns-rebinding-protection",
    ])
      expect(run.stdout).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
  });
});
