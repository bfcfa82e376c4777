import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One model in the models.dev catalog format. */
export interface CatalogModelEntry {
  id: string;
  name?: string;
  limit?: { context?: number; output?: number };
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
}

/** The models.dev catalog format: providers, each with its models by id. */
export type CatalogDocument = Record<
  string,
  { id?: string; name?: string; models: Record<string, CatalogModelEntry> }
>;

/** What the fake catalog answers: the document, an HTTP status, or no answer at all. */
export type CatalogAnswer =
  | { document: CatalogDocument }
  | { status: number }
  | { body: string }
  | { stall: true };

/** A running fake catalog server. */
export interface FakeCatalog {
  /** The catalog's URL (`http://127.0.0.1:PORT/api.json`). */
  readonly url: string;
  /** How many requests it received. */
  readonly hits: number;
  /** Changes what the next requests get. */
  answer(answer: CatalogAnswer): void;
  /** Resolves at the next request's arrival (for background refreshes). */
  nextHit(): Promise<void>;
  /** Stops the server and cuts open connections. Never rejects. */
  close(): Promise<void>;
}

/** A small catalog in the models.dev format, for tests. */
export function sampleCatalog(): CatalogDocument {
  return {
    anthropic: {
      id: "anthropic",
      models: {
        "claude-test-1": {
          id: "claude-test-1",
          name: "Claude Test 1",
          limit: { context: 200_000, output: 64_000 },
          cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
        },
      },
    },
    openai: {
      id: "openai",
      models: {
        "gpt-test": {
          id: "gpt-test",
          name: "GPT Test",
          limit: { context: 128_000, output: 16_384 },
          cost: { input: 2.5, output: 10, cache_read: 1.25 },
        },
      },
    },
  };
}

/**
 * Starts a fake models.dev catalog on 127.0.0.1 (ephemeral port), answering every GET with
 * `initial` (default {@link sampleCatalog}) until told otherwise. Resolves once listening.
 */
export async function startFakeCatalog(
  initial: CatalogAnswer = { document: sampleCatalog() },
): Promise<FakeCatalog> {
  let current = initial;
  let hits = 0;
  let waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    hits++;
    for (const w of waiters) w();
    waiters = [];
    req.resume();
    if ("stall" in current) return;
    if ("status" in current) {
      res.writeHead(current.status);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end("body" in current ? current.body : JSON.stringify(current.document));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api.json`;
  return {
    url,
    get hits() {
      return hits;
    },
    answer: (answer) => {
      current = answer;
    },
    nextHit: () => new Promise((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
