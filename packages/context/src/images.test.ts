import type { Message, MessageId, ToolCallId } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { IMAGE_PLACEHOLDER } from "./images.js";
import { buildRequest } from "./request.js";

const image = { type: "image" as const, mediaType: "image/png" as const, data: "iVBORw0KGgo=" };
const messages: Message[] = [
  { id: "m1" as MessageId, role: "user", content: [{ type: "text", text: "look" }, image] },
  {
    id: "m2" as MessageId,
    role: "assistant",
    content: [
      { type: "toolUse", id: "t1" as ToolCallId, name: "Read", input: { file_path: "a.png" } },
    ],
  },
  {
    id: "m3" as MessageId,
    role: "user",
    content: [
      {
        type: "toolResult",
        toolUseId: "t1" as ToolCallId,
        content: [{ type: "text", text: "Image a.png" }, image],
        isError: false,
      },
    ],
  },
];
const base = { model: "m", system: [], tools: [], messages, maxTokens: 100 };

describe("images for a text-only model", () => {
  it("become a text placeholder, in user messages and tool results alike", () => {
    const request = buildRequest({ ...base, vision: false });
    const text = JSON.stringify(request.messages);
    expect(text).not.toContain('"image"');
    expect(request.messages[0]?.content).toEqual([
      { type: "text", text: "look" },
      { type: "text", text: IMAGE_PLACEHOLDER },
    ]);
    expect(request.messages[2]?.content[0]).toMatchObject({
      type: "toolResult",
      content: [
        { type: "text", text: "Image a.png" },
        { type: "text", text: IMAGE_PLACEHOLDER },
      ],
    });
    // The same bytes round after round.
    expect(JSON.stringify(buildRequest({ ...base, vision: false }).messages)).toBe(text);
  });

  it("stay images for a vision model (the default)", () => {
    expect(JSON.stringify(buildRequest(base).messages)).toContain('"image"');
    expect(JSON.stringify(buildRequest({ ...base, vision: true }).messages)).toContain('"image"');
  });
});
