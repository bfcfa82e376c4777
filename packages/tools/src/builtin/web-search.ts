import { z } from "zod";
import type { ToolCtx } from "../ctx.js";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput, type ToolOutput, textOutput } from "../tool-output.js";
import { describe } from "./describe.js";
import { getOnce, readLimited } from "./web-client.js";

const WebSearchInput = lazySchema(() =>
  z.strictObject({
    query: z.string().min(2).describe("The search query"),
    allowed_domains: z.array(z.string()).optional().describe("Only results from these domains"),
    blocked_domains: z.array(z.string()).optional().describe("Never results from these domains"),
  }),
);
type WebSearchInput = z.infer<ReturnType<typeof WebSearchInput>>;

const SearchResults = lazySchema(() =>
  z.object({
    results: z.array(
      z
        .object({ title: z.string().optional(), url: z.string(), content: z.string().optional() })
        .loose(),
    ),
  }),
);

const MAX_RESULTS = 10;

function inDomains(url: string, domains: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

function searchUrl(ctx: ToolCtx, query: string): URL | null {
  if (!ctx.web.searchUrl) return null;
  const url = new URL(ctx.web.searchUrl);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  return url;
}

async function webSearch(input: WebSearchInput, ctx: ToolCtx): Promise<ToolOutput> {
  const url = searchUrl(ctx, input.query);
  if (!url)
    return errorOutput(
      "Web search is not configured: set a SearXNG-style JSON endpoint (web.search_url) to use WebSearch.",
    );
  const response = await getOnce(url, ctx, "application/json", ctx.web.searchHeaders);
  if (!response.ok) return errorOutput(`The search endpoint answered HTTP ${response.status}.`);
  const body = await readLimited(response, ctx.web.maxBytes ?? 10 * 1024 * 1024);
  let parsed: z.infer<ReturnType<typeof SearchResults>>;
  try {
    parsed = SearchResults().parse(JSON.parse(body.text));
  } catch {
    return errorOutput(
      "The search endpoint did not answer with SearXNG-style JSON ({ results: [{ title, url, content }] }).",
    );
  }
  const results = parsed.results
    .filter((r) => !input.allowed_domains?.length || inDomains(r.url, input.allowed_domains))
    .filter((r) => !input.blocked_domains?.length || !inDomains(r.url, input.blocked_domains))
    .slice(0, MAX_RESULTS);
  if (results.length === 0) return textOutput(`No results for "${input.query}".`);
  const lines = results.map(
    (r, i) =>
      `${i + 1}. ${r.title ?? r.url}\n   ${r.url}${r.content ? `\n   ${r.content.trim()}` : ""}`,
  );
  return textOutput(`Results for "${input.query}":\n\n${lines.join("\n\n")}`);
}

/** WebSearch: queries a configured SearXNG-style JSON endpoint; a clear error when none is set. */
export const webSearchTool = defineTool({
  name: "WebSearch",
  description: describe(
    "WebSearch",
    "Searches the web and returns result titles, links and excerpts for query.",
  ),
  inputSchema: WebSearchInput,
  inputJsonSchema: builtinInputJsonSchema("WebSearch"),
  isReadOnly: () => true,
  action: async (input, ctx) => {
    const url = searchUrl(ctx, input.query);
    return url ? [{ kind: "network", url: url.href, domain: url.hostname }] : [{ kind: "none" }];
  },
  title: (input) => `WebSearch ${input.query}`,
  call: webSearch,
});
