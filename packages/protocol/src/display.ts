import { z } from "zod";
import { lazily } from "./lazy.js";
import { TodoItem } from "./records.js";

/** What a host shows for a tool call, as its preview (before approval) or its result. */
export const ToolDisplay = lazily(() =>
  z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("text"), text: z.string() }),
    /** A unified diff of one file. */
    z.object({
      kind: z.literal("diff"),
      path: z.string(),
      diff: z.string(),
      added: z.number().int().nonnegative(),
      removed: z.number().int().nonnegative(),
    }),
    z.object({
      kind: z.literal("command"),
      command: z.string(),
      cwd: z.string().optional(),
      output: z.string().optional(),
      exitCode: z.number().int().nullable().optional(),
    }),
    z.object({ kind: z.literal("files"), paths: z.array(z.string()), truncated: z.boolean() }),
    z.object({ kind: z.literal("todos"), todos: z.array(TodoItem) }),
  ]),
);
export type ToolDisplay = z.infer<typeof ToolDisplay>;
