import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CATALOG_CACHE_FILE, detectProvider, latestBuiltinModel } from "@z-engine/llm";
import { emptyUsage } from "@z-engine/protocol";
import type { SessionHandle } from "../session/handle.js";
import { targetOf } from "./registry.js";

/** A model a host offers in its picker. */
export interface ModelChoice {
  readonly id: string;
  /** The catalog's display name, when it has one. */
  readonly name?: string;
  readonly contextWindow: number;
  /** US dollars per million input and output tokens (0 when unknown). */
  readonly inputPrice: number;
  readonly outputPrice: number;
  /** What the settings use it for (`main`, `fast`, `review`, `fallback`) and whether the session runs it now. */
  readonly roles: readonly string[];
  readonly current: boolean;
}

/** The models.dev provider whose list fits the session's endpoint, by host. */
function catalogProvider(host: string): string | undefined {
  if (host.endsWith("anthropic.com")) return "anthropic";
  if (host === "api.openai.com") return "openai";
  if (host.endsWith("openrouter.ai")) return "openrouter";
  if (host === "generativelanguage.googleapis.com") return "google";
  return undefined;
}

const MAX_CATALOG_MODELS = 150;

/** Model ids and names of one provider in the cached catalog (empty when none is cached). */
async function cachedModels(
  dataDir: string,
  provider: string,
): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  const text = await readFile(join(dataDir, CATALOG_CACHE_FILE), "utf8").catch(() => "");
  try {
    const doc = JSON.parse(text) as { data?: Record<string, { models?: Record<string, unknown> }> };
    const models = doc.data?.[provider]?.models ?? {};
    for (const [id, entry] of Object.entries(models)) {
      if (out.size >= MAX_CATALOG_MODELS) break;
      const name = (entry as { name?: unknown } | null)?.name;
      out.set(id, typeof name === "string" ? name : undefined);
    }
  } catch {
    // No cache yet, or a damaged one (the catalog itself reports that): the settings' models remain.
  }
  return out;
}

/**
 * The models a session's picker offers: the one it runs, those its settings name (main,
 * fast, review, fallbacks), the newest built-in model of each family of its provider, and
 * the cached catalog's models of that provider (at most 150), each with its window and
 * prices from the session's catalog. Never rejects; a missing catalog leaves the others.
 */
export async function modelChoices(handle: SessionHandle): Promise<ModelChoice[]> {
  const { session, ctx } = targetOf(handle);
  const settings = session.config.settings;
  const roles = new Map<string, string[]>();
  const add = (id: string | undefined, role?: string) => {
    if (!id) return;
    const list = roles.get(id) ?? [];
    if (role && !list.includes(role)) list.push(role);
    roles.set(id, list);
  };
  add(session.model);
  add(settings.model.main, "main");
  add(settings.model.fast, "fast");
  add(settings.model.review, "review");
  for (const f of settings.model.fallbacks) add(f, "fallback");
  const detected = detectProvider({
    kind: settings.provider.kind,
    baseUrl: settings.provider.base_url,
  });
  const provider = detected.ok ? catalogProvider(detected.endpoint.host) : undefined;
  const families =
    provider === "anthropic" ? ["opus", "sonnet", "haiku"] : provider === "openai" ? ["gpt"] : [];
  for (const family of families) add(latestBuiltinModel(family));
  const names = provider ? await cachedModels(ctx.paths.dataDir, provider) : new Map();
  for (const id of names.keys()) add(id);
  return [...roles.entries()].map(([id, list]) => {
    const million = { ...emptyUsage(), input: 1_000_000 };
    const out = { ...emptyUsage(), output: 1_000_000 };
    const name = names.get(id);
    return {
      id,
      ...(name ? { name } : {}),
      contextWindow: session.catalog.info(id).contextWindow,
      inputPrice: session.catalog.price(id, million).costUsd,
      outputPrice: session.catalog.price(id, out).costUsd,
      roles: list,
      current: id === session.model,
    };
  });
}
