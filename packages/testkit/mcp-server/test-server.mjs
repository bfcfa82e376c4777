#!/usr/bin/env node
// A small MCP server written with the SDK, for tests: one behaviour per tool. Run it as
// `node test-server.mjs [--http PORT | --sse PORT] [--tools N] [--delay-start MS]
// [--odd-names] [--log-lists] [--instructions TEXT]`; in the
// HTTP modes it prints `listening <port>` on stdout once it accepts connections. With
// MCP_TEST_LOG set, it appends one line per notable event (started, cancelled) to that file.
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import {
  CallToolRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  GetPromptRequestSchema,
  ListResourceTemplatesRequestSchema,
  RootsListChangedNotificationSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const log = (line) => {
  if (process.env.MCP_TEST_LOG) appendFileSync(process.env.MCP_TEST_LOG, `${line}\n`);
};
const extraTools = Number(opt("--tools") ?? 0);
const delay = Number(opt("--delay-start") ?? 0);
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const object = (properties = {}, required = []) => ({ type: "object", properties, required });
const baseTools = [
  {
    name: "echo",
    description: "Echoes its text.",
    inputSchema: object({ text: { type: "string" } }, ["text"]),
  },
  {
    name: "add",
    description: "Adds two numbers (structured content).",
    inputSchema: object({ a: { type: "number" }, b: { type: "number" } }, ["a", "b"]),
  },
  { name: "image", description: "Returns a tiny PNG.", inputSchema: object() },
  { name: "link", description: "Returns a resource link.", inputSchema: object() },
  {
    name: "big",
    description: "Returns `size` characters of text.",
    inputSchema: object({ size: { type: "number" } }, ["size"]),
  },
  { name: "fail", description: "Returns a tool error.", inputSchema: object() },
  {
    name: "slow",
    description: "Reports progress, then waits until cancelled.",
    inputSchema: object(),
  },
  { name: "crash", description: "Exits the server process.", inputSchema: object() },
  { name: "sample", description: "Asks the client for sampling.", inputSchema: object() },
  { name: "elicit", description: "Asks the client for elicitation.", inputSchema: object() },
  {
    name: "grow",
    description: "Adds the tool `grown` and announces list_changed.",
    inputSchema: object(),
  },
  {
    name: "env",
    description: "Returns an environment variable.",
    inputSchema: object({ name: { type: "string" } }, ["name"]),
  },
  { name: "pid", description: "Returns the server's process id.", inputSchema: object() },
  {
    name: "odd name.v2",
    description: "A tool whose name needs sanitizing.",
    inputSchema: object(),
  },
  {
    name: "flood",
    description: "Announces list_changed `count` times in a row.",
    inputSchema: object({ count: { type: "number" } }, ["count"]),
  },
  {
    name: "images",
    description: "Returns `count` tiny PNGs.",
    inputSchema: object({ count: { type: "number" } }, ["count"]),
  },
  { name: "silent", description: "Never answers (no progress either).", inputSchema: object() },
  { name: "roots", description: "Lists the client's roots.", inputSchema: object() },
  {
    name: "compact",
    description: "Returns structured content whose text block is the same JSON, compact.",
    inputSchema: object(),
  },
];
if (argv.includes("--odd-names"))
  baseTools.push(
    { name: "a.b", description: "Dotted.", inputSchema: object() },
    { name: "a_b", description: "Underscored.", inputSchema: object() },
    { name: `long${"x".repeat(212)}`, description: "A 216-character name.", inputSchema: object() },
    {
      name: "hidden",
      description: `Looks\u0000 safe\u202e.exe\u2066 here\u200b.${" pad".repeat(1500)}`,
      inputSchema: object(),
    },
  );
for (let i = 0; i < extraTools; i++)
  baseTools.push({
    name: `t${i}`,
    description: `Extra tool number ${i}.\nSecond line.`,
    inputSchema: object({ x: { type: "string" } }),
  });

const text = (t) => ({ content: [{ type: "text", text: t }] });

function makeServer() {
  const tools = [...baseTools];
  const server = new Server(
    { name: "z-test-server", version: "1.0.0" },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
      ...(opt("--instructions") ? { instructions: opt("--instructions") } : {}),
    },
  );
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    log("roots changed");
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: "test://item/{id}",
        name: "item",
        description: "One item by id.",
        mimeType: "text/plain",
      },
    ],
  }));
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (argv.includes("--log-lists")) log("tools/list");
    return { tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case "echo":
        return text(String(args.text));
      case "add": {
        const sum = Number(args.a) + Number(args.b);
        return { content: [{ type: "text", text: String(sum) }], structuredContent: { sum } };
      }
      case "image":
        return { content: [{ type: "image", data: PNG, mimeType: "image/png" }] };
      case "link":
        return {
          content: [
            { type: "resource_link", uri: "test://readme", name: "readme", mimeType: "text/plain" },
          ],
        };
      case "big":
        return text("x".repeat(Number(args.size)));
      case "fail":
        return { content: [{ type: "text", text: "it went wrong" }], isError: true };
      case "slow": {
        const token = request.params._meta?.progressToken;
        if (token !== undefined)
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: 1, total: 2, message: "halfway there" },
          });
        log("slow started");
        await new Promise((resolve) =>
          extra.signal.addEventListener("abort", resolve, { once: true }),
        );
        log(`cancelled ${String(extra.requestId)}`);
        return text("cancelled");
      }
      case "crash":
        process.exit(3);
        break;
      case "sample":
        try {
          await server.request(
            { method: "sampling/createMessage", params: { messages: [], maxTokens: 10 } },
            CreateMessageResultSchema,
          );
          return text("sampling answered");
        } catch (error) {
          return text(`sampling refused: ${error.message}`);
        }
      case "elicit":
        try {
          const answer = await server.request(
            {
              method: "elicitation/create",
              params: {
                message: "Which build should I start?",
                requestedSchema: {
                  type: "object",
                  properties: {
                    target: {
                      type: "string",
                      title: "Target",
                      enum: ["debug", "release"],
                      default: "debug",
                    },
                    jobs: { type: "integer", description: "Parallel jobs", default: 2 },
                    clean: { type: "boolean", title: "Clean first" },
                    note: { type: "string", default: "none" },
                  },
                  required: ["target"],
                },
              },
            },
            ElicitResultSchema,
          );
          return text(`elicitation ${answer.action} ${JSON.stringify(answer.content ?? {})}`);
        } catch (error) {
          return text(`elicitation refused: ${error.message}`);
        }
      case "grow":
        if (!tools.some((t) => t.name === "grown"))
          tools.push({ name: "grown", description: "Appeared later.", inputSchema: object() });
        await server.sendToolListChanged();
        return text("grown");
      case "env":
        return text(process.env[String(args.name)] ?? "(unset)");
      case "flood":
        for (let i = 0; i < Number(args.count); i++) await server.sendToolListChanged();
        return text("flooded");
      case "images":
        return {
          content: Array.from({ length: Number(args.count) }, () => ({
            type: "image",
            data: PNG,
            mimeType: "image/png",
          })),
        };
      case "silent":
        log("silent started");
        await new Promise((resolve) =>
          extra.signal.addEventListener("abort", resolve, { once: true }),
        );
        return text("cancelled");
      case "roots": {
        const { roots } = await server.listRoots();
        return text(roots.map((r) => `${r.uri} ${r.name ?? ""}`.trim()).join("\n"));
      }
      case "compact":
        return {
          content: [{ type: "text", text: JSON.stringify({ sum: 3, parts: [1, 2] }) }],
          structuredContent: { sum: 3, parts: [1, 2] },
        };
      case "pid":
        return text(String(process.pid));
      case "grown":
        return text("I am new");
      default:
        if (/^t\d+$/.test(request.params.name)) return text(`${request.params.name} ran`);
        return {
          content: [{ type: "text", text: `unknown tool ${request.params.name}` }],
          isError: true,
        };
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      { uri: "test://readme", name: "readme", description: "The read-me.", mimeType: "text/plain" },
      { uri: "test://big", name: "big", description: "40,000 characters.", mimeType: "text/plain" },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const item = /^test:\/\/item\/(\w+)$/.exec(request.params.uri);
    if (item)
      return {
        contents: [{ uri: request.params.uri, mimeType: "text/plain", text: `Item ${item[1]}.` }],
      };
    if (request.params.uri === "test://big")
      return {
        contents: [{ uri: "test://big", mimeType: "text/plain", text: "r".repeat(40_000) }],
      };
    if (request.params.uri !== "test://readme")
      throw new Error(`no resource ${request.params.uri}`);
    return { contents: [{ uri: "test://readme", mimeType: "text/plain", text: "Read me first." }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      {
        name: "greet",
        description: "Greets someone.",
        arguments: [{ name: "name", required: true }, { name: "style" }],
      },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    if (!args.name) throw new Error("missing required argument name");
    return {
      description: "A greeting",
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `Say hello to ${args.name}${args.style ? ` in a ${args.style} way` : ""}.`,
          },
        },
      ],
    };
  });
  return server;
}

function listen(port, handler) {
  const http = createServer(handler);
  http.listen(port, "127.0.0.1", () => {
    process.stdout.write(`listening ${http.address().port}\n`);
  });
}

async function main() {
  if (delay > 0) await new Promise((r) => setTimeout(r, delay));
  log(`started ${process.pid}`);
  if (opt("--http") !== undefined) {
    listen(Number(opt("--http")), async (req, res) => {
      if (
        req.headers["x-test-token"] !== (process.env.MCP_TEST_TOKEN ?? req.headers["x-test-token"])
      ) {
        res.writeHead(401).end("bad token");
        return;
      }
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = makeServer();
      res.on("close", () => void transport.close());
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
    return;
  }
  if (opt("--sse") !== undefined) {
    const sessions = new Map();
    listen(Number(opt("--sse")), async (req, res) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (req.method === "GET" && url.pathname === "/sse") {
        const transport = new SSEServerTransport("/messages", res);
        sessions.set(transport.sessionId, transport);
        res.on("close", () => sessions.delete(transport.sessionId));
        await makeServer().connect(transport);
        return;
      }
      const transport = sessions.get(url.searchParams.get("sessionId"));
      if (!transport) {
        res.writeHead(404).end("no session");
        return;
      }
      await transport.handlePostMessage(req, res);
    });
    return;
  }
  await makeServer().connect(new StdioServerTransport());
}

await main();
