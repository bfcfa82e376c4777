import { createHash, randomBytes } from "node:crypto";
import { chmod, lstat, mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";

/** What is kept for one server at one URL. Tokens never leave this record but for that URL. */
export interface StoredAuth {
  readonly v: 2;
  /** The server's name and URL, as the entry said them (the record's key). */
  readonly server: string;
  readonly url: string;
  /** Registered (or pre-registered) client information, with the SDK's `issuer` stamp. */
  readonly client?: OAuthClientInformationMixed & { readonly issuer?: string };
  readonly tokens?: OAuthTokens & { readonly issuer?: string };
  /** When the access token expires (ms since the epoch), from `expires_in`. */
  readonly expiresAt?: number;
  readonly discovery?: OAuthDiscoveryState;
}

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** The file name of a server's record: a hash of its name and URL (neither shows on disk). */
function keyOf(server: string, url: string): string {
  return createHash("sha256").update(`${server}\n${url}`).digest("hex").slice(0, 32);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * OAuth state of remote MCP servers, one file per server and URL in a folder of the data
 * folder (`<data>/mcp-auth/`, mode 0700, files 0600, written atomically). A server entry
 * that changes its URL starts with nothing: a token is only ever handed to the URL it was
 * issued for. A record that cannot be read (damaged, not a regular file, another server's)
 * reads as nothing. Updates of one record in this process are applied in order.
 */
export class McpTokenStore {
  private readonly queue = new Map<string, Promise<unknown>>();

  constructor(readonly dir: string) {}

  private file(server: string, url: string): string {
    return join(this.dir, `${keyOf(server, url)}.json`);
  }

  /** The record of `server` at `url`, or undefined. Never rejects. */
  async read(server: string, url: string): Promise<StoredAuth | undefined> {
    const file = this.file(server, url);
    try {
      if (!(await lstat(file)).isFile()) return undefined;
      const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
      if (!isRecord(parsed) || parsed.server !== server || parsed.url !== url) return undefined;
      return parsed as unknown as StoredAuth;
    } catch {
      return undefined;
    }
  }

  /**
   * Applies `change` to the record (a new one when there is none) and writes it; `undefined`
   * from `change` removes it. Rejects when the folder cannot be written.
   */
  update(
    server: string,
    url: string,
    change: (current: StoredAuth) => StoredAuth | undefined,
  ): Promise<StoredAuth | undefined> {
    const key = keyOf(server, url);
    const previous = this.queue.get(key) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      .then(async () => {
        const current = (await this.read(server, url)) ?? { v: 2 as const, server, url };
        const changed = change(current);
        if (changed === undefined) await rm(this.file(server, url), { force: true });
        else await this.write(server, url, { ...changed, v: 2, server, url });
        return changed;
      });
    this.queue.set(key, next);
    void next.finally(() => {
      if (this.queue.get(key) === next) this.queue.delete(key);
    });
    return next;
  }

  private async write(server: string, url: string, record: StoredAuth): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: DIR_MODE });
    await chmod(this.dir, DIR_MODE);
    const file = this.file(server, url);
    const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: FILE_MODE });
      await chmod(temp, FILE_MODE);
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** Forgets `server` at `url` (logout). Resolves true when there was a record. */
  async clear(server: string, url: string): Promise<boolean> {
    const had = (await this.read(server, url)) !== undefined;
    await this.update(server, url, () => undefined);
    return had;
  }

  /** The servers and URLs that have a record. Never rejects. */
  async list(): Promise<{ server: string; url: string }[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const out: { server: string; url: string }[] = [];
    for (const name of names.filter((n) => n.endsWith(".json"))) {
      try {
        const parsed: unknown = JSON.parse(await readFile(join(this.dir, name), "utf8"));
        if (isRecord(parsed) && typeof parsed.server === "string" && typeof parsed.url === "string")
          out.push({ server: parsed.server, url: parsed.url });
      } catch {
        // A damaged record is left out.
      }
    }
    return out;
  }
}
