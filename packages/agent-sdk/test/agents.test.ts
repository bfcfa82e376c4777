import { type FakeProviderRequest, reply, when } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { query, type SDKResultMessage } from "../src/index.js";
import { collect, isMain } from "./world.js";
import { worldPerTest } from "./world-per-test.js";

const newWorld = worldPerTest();

const REVIEWER = "You are the README reviewer of this host.";
const bodyText = (request: FakeProviderRequest) => JSON.stringify(request.body);
const fromReviewer = (r: FakeProviderRequest) => bodyText(r).includes(REVIEWER);
const fromMain = (r: FakeProviderRequest) => isMain(r) && !fromReviewer(r);

describe("agents", () => {
  it("a subagent defined in options.agents runs with its own prompt and tools", async () => {
    const w = await newWorld();
    w.provider.push(
      when(
        fromMain,
        reply.toolCalls([
          {
            name: "Agent",
            input: { subagent_type: "reviewer", description: "Review", prompt: "review README.md" },
          },
        ]),
      ),
      when(fromReviewer, reply.text("The README is fine.")),
      when(fromMain, reply.text("The reviewer says it is fine.")),
    );
    const messages = await collect(
      query({
        prompt: "have the reviewer look at README.md",
        options: {
          cwd: w.repo.root,
          env: w.env,
          agents: {
            reviewer: { description: "Reviews READMEs", prompt: REVIEWER, tools: ["Read", "Grep"] },
          },
        },
      }),
    );
    const first = w.provider.requests.find(fromMain);
    expect(bodyText(first as FakeProviderRequest)).toContain("Reviews READMEs");
    const sub = w.provider.requests.find(fromReviewer) as FakeProviderRequest;
    const tools = ((sub.body as { tools: Array<{ name: string }> }).tools ?? []).map((t) => t.name);
    expect(tools.sort()).toEqual(["Grep", "Read"]);
    expect(bodyText(w.provider.requests.filter(fromMain)[1] as FakeProviderRequest)).toContain(
      "The README is fine.",
    );
    const result = messages.at(-1) as SDKResultMessage;
    expect(result).toMatchObject({ subtype: "success", result: "The reviewer says it is fine." });
    // The subagent's messages are its own: only the main agent's reach the host.
    expect(messages.filter((m) => m.type === "assistant")).toHaveLength(2);
  });
});
