import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type ClientCapabilities, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { createEngine } from "@z-engine/engine";
import {
  type AcpTestClient,
  connectAcpTestClient,
  createTestEngine,
  type PermissionAnswer,
  reply,
  type TestEngine,
} from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createAcpAgent } from "./agent.js";

let t: TestEngine<typeof createEngine> | undefined;
let editor: AcpTestClient | undefined;
afterEach(async () => {
  await editor?.close();
  await t?.dispose();
  editor = t = undefined;
});

const FS: ClientCapabilities = { fs: { readTextFile: true, writeTextFile: true } };

/** An editor with `capabilities`, its permission answers by kind, over a fresh engine. */
async function open(capabilities: ClientCapabilities, answer: "allow_once" | "reject_once") {
  t = await createTestEngine({ createEngine, files: { "a.txt": "on disk\n" }, script: [] });
  editor = connectAcpTestClient(createAcpAgent({ engine: t.engine, folder: t.repo.root }), {
    onPermission: (request): PermissionAnswer =>
      request.options.find((o) => o.kind === answer)?.optionId ?? "cancelled",
  });
  await editor.agent.request("initialize", {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: capabilities,
  });
  const { sessionId } = await editor.agent.request("session/new", {
    cwd: t.repo.root,
    mcpServers: [],
  });
  const file = join(t.repo.root, "a.txt");
  const prompt = async (text: string) =>
    editor?.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  return { t, editor, file, prompt };
}

/** The tool results the model was sent in its `n`th request (text, and whether each failed). */
function toolResults(t: TestEngine<typeof createEngine>, n: number) {
  const last = t.model.requests[n]?.messages.at(-1);
  return (last?.content ?? []).flatMap((block) =>
    block.type === "toolResult"
      ? [
          {
            isError: block.isError,
            text: block.content.map((c) => (c.type === "text" ? c.text : "")).join(""),
          },
        ]
      : [],
  );
}

describe("the client's fs capabilities", () => {
  it("offered, Read sees the editor's unsaved buffer and Edit lands in the editor, not on disk", async () => {
    const { t, editor, file, prompt } = await open(FS, "allow_once");
    editor.buffers.set(file, "unsaved buffer\n");
    t.model.push(reply.toolCall("Read", { file_path: file }));
    t.model.push(
      reply.toolCall("Edit", { file_path: file, old_string: "unsaved", new_string: "edited" }),
    );
    t.model.push(reply.text("Done."));
    const response = await prompt(`Fix ${file}`);
    expect(response?.stopReason).toBe("end_turn");
    expect(editor.reads).toContain(file);
    expect(toolResults(t, 1)).toEqual([
      { isError: false, text: expect.stringContaining("unsaved buffer") },
    ]);
    expect(toolResults(t, 2)).toEqual([expect.objectContaining({ isError: false })]);
    expect(editor.writes).toEqual([{ path: file, content: "edited buffer\n" }]);
    expect(await readFile(file, "utf8")).toBe("on disk\n");
  });

  it("offered, an Edit of a file never read is refused (read-before-edit) and the editor gets no write", async () => {
    const { t, editor, file, prompt } = await open(FS, "allow_once");
    t.model.push(reply.toolCall("Edit", { file_path: file, old_string: "on", new_string: "off" }));
    t.model.push(reply.text("Could not."));
    await prompt(`Fix ${file}`);
    expect(toolResults(t, 1)).toEqual([
      { isError: true, text: expect.stringMatching(/has not been read/) },
    ]);
    expect(editor.writes).toEqual([]);
    expect(await readFile(file, "utf8")).toBe("on disk\n");
  });

  it("offered, a Write the gate's card rejects never reaches the editor", async () => {
    const { t, editor, prompt } = await open(FS, "reject_once");
    const other = join(t.repo.root, "b.txt");
    t.model.push(reply.toolCall("Write", { file_path: other, content: "new\n" }));
    t.model.push(reply.text("Could not."));
    await prompt(`Write ${other}`);
    expect(editor.writes).toEqual([]);
    await expect(readFile(other, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("not offered, Read and Edit use the disk and the editor is never asked", async () => {
    const { t, editor, file, prompt } = await open({}, "allow_once");
    editor.buffers.set(file, "unsaved buffer\n");
    t.model.push(reply.toolCall("Read", { file_path: file }));
    t.model.push(reply.toolCall("Edit", { file_path: file, old_string: "on", new_string: "off" }));
    t.model.push(reply.text("Done."));
    await prompt(`Fix ${file}`);
    expect(toolResults(t, 1)).toEqual([
      { isError: false, text: expect.stringContaining("on disk") },
    ]);
    expect(editor.reads).toEqual([]);
    expect(editor.writes).toEqual([]);
    expect(await readFile(file, "utf8")).toBe("off disk\n");
  });
});
