import { createShell, type SandboxBackend, type Shell } from "@z-engine/host";
import { createMemoryStore, reply } from "@z-engine/testkit";
import { defineTool, textOutput } from "@z-engine/tools";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Harness, harness, loginProject } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("a host replaces single layers", () => {
  it("brings its own tool, shell and session store", async () => {
    const commands: string[] = [];
    const store = createMemoryStore();
    const shout = defineTool({
      name: "Shout",
      description: "Repeats the text in capitals.",
      inputSchema: z.strictObject({ text: z.string() }),
      isReadOnly: () => true,
      call: async (input) => textOutput(input.text.toUpperCase()),
    });
    const base = createShell();
    const shell: Shell = {
      run: (request) => {
        commands.push(request.command);
        return base.run(request);
      },
      spawnBackground: (request) => base.spawnBackground(request),
    };
    h = await harness({
      files: loginProject,
      script: [],
      overrides: { mode: "bypass" },
      engine: { tools: [shout], shell, store },
    });
    h.model.push(
      reply.toolCalls([
        { name: "Shout", input: { text: "hello" } },
        { name: "Bash", input: { command: "echo from-host-shell" } },
      ]),
      reply.text("done"),
    );
    const summary = await h.session.run("shout and echo");
    expect(summary.outcome).toBe("completed");
    const results = JSON.stringify(h.model.requests[1]?.messages.at(-1));
    expect(results).toContain("HELLO");
    expect(results).toContain("from-host-shell");
    expect(commands.some((c) => c.includes("echo from-host-shell"))).toBe(true);
    expect(h.model.requests[0]?.tools.map((t) => t.name)).toContain("Shout");
    const records = store.records(h.session.id);
    expect(records.filter((r) => r.kind === "turnEnded")).toHaveLength(1);
  });

  it("runs commands inside the host's sandbox backend when the settings turn the sandbox on", async () => {
    const wrapped: string[] = [];
    const backend: SandboxBackend = {
      name: "test-env",
      wrap: (command) => {
        wrapped.push(command.program);
        return {
          program: "env",
          args: ["INSIDE_TEST_SANDBOX=yes", command.program, ...command.args],
          release: () => {},
        };
      },
    };
    h = await harness({
      files: loginProject,
      script: [],
      overrides: { mode: "bypass" },
      userSettings: "[shell.sandbox]\nenabled = true\n",
      engine: { sandbox: backend },
    });
    h.model.push(
      reply.toolCall("Bash", { command: "echo sandbox=$INSIDE_TEST_SANDBOX" }),
      reply.text("done"),
    );
    await h.session.run("where am I");
    expect(JSON.stringify(h.model.requests[1]?.messages.at(-1))).toContain("sandbox=yes");
    expect(wrapped.length).toBeGreaterThan(0);
  });
});
