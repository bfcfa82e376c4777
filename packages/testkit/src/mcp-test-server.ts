import { fileURLToPath } from "node:url";

/**
 * The absolute path of the MCP test server (a real server written with the SDK, one behaviour
 * per tool: echo, add, image, link, big, fail, slow, crash, sample, elicit, grow, env, pid,
 * flood, images, silent, compact; resources test://readme and test://big).
 * Start it with `node <path>` for stdio, `--http PORT` or `--sse PORT` for the remote
 * transports (it prints `listening <port>`), `--tools N` for N extra tools, `--delay-start MS`
 * for a slow start, `--odd-names` for tools whose names collide or run long (and a description
 * with hidden characters). With `MCP_TEST_LOG` set it appends `started <pid>`, `slow started`,
 * `silent started` and `cancelled <id>` lines to that file (and `tools/list` per listing with
 * `--log-lists`).
 */
export const MCP_TEST_SERVER: string = fileURLToPath(
  new URL("../mcp-server/test-server.mjs", import.meta.url),
);
