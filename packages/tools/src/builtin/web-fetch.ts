import { z } from "zod";
import type { ToolCtx } from "../ctx.js";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput, type ToolOutput, textOutput } from "../tool-output.js";
import { describe } from "./describe.js";
import { getOnce, isLoopback, readLimited } from "./web-client.js";

const WebFetchInput = lazySchema(() =>
  z.strictObject({
    url: z.url().describe("The URL to fetch (http or https)"),
    prompt: z.string().min(1).describe("What to find out from the page"),
  }),
);
type WebFetchInput = z.infer<ReturnType<typeof WebFetchInput>>;

const MAX_REDIRECTS = 5;

/** The URL to fetch: http upgraded to https except for loopback hosts; null for other schemes. */
function target(raw: string): URL | null {
  const url = new URL(raw);
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.protocol === "http:" && !isLoopback(url.hostname)) url.protocol = "https:";
  return url;
}

async function toMarkdown(body: string, contentType: string): Promise<string> {
  if (!contentType.includes("html")) return body;
  // Loaded on first use: turndown brings a DOM implementation that start-up should not pay for.
  // turndown is CommonJS (`export =`): its namespace's default export is the class.
  const { default: TurndownService } = (await import("turndown")) as unknown as {
    default: typeof import("turndown");
  };
  const service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced" });
  service.remove(["script", "style", "noscript", "iframe"]);
  return service.turndown(body);
}

interface Page {
  readonly markdown: string;
  readonly truncated: boolean;
  readonly url: URL;
}

/** Fetches, following same-host redirects; another host's redirect is returned as a note. */
async function fetchPage(start: URL, ctx: ToolCtx): Promise<Page | ToolOutput> {
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await getOnce(
      url,
      ctx,
      "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5",
    );
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url);
      if (next.host !== url.host)
        return textOutput(
          `The page redirects to another host: ${next.href}\nFetch that URL if you still want it.`,
        );
      url = next;
      continue;
    }
    if (!response.ok)
      return errorOutput(
        `Fetching ${url.href} failed: HTTP ${response.status} ${response.statusText}`,
      );
    const contentType = response.headers.get("content-type") ?? "";
    if (contentType !== "" && !/text\/|json|xml|javascript/.test(contentType)) {
      return errorOutput(
        `${url.href} is ${contentType}, not a text page; WebFetch reads text and HTML only.`,
      );
    }
    const body = await readLimited(response, ctx.web.maxBytes ?? 10 * 1024 * 1024);
    return { markdown: await toMarkdown(body.text, contentType), truncated: body.truncated, url };
  }
  return errorOutput(`Too many redirects from ${start.href}.`);
}

async function webFetch(input: WebFetchInput, ctx: ToolCtx): Promise<ToolOutput> {
  const url = target(input.url);
  if (!url) return errorOutput(`Only http and https URLs can be fetched: ${input.url}`);
  const page = await fetchPage(url, ctx);
  if ("content" in page) return page;
  const max = ctx.web.maxMarkdownChars ?? 100_000;
  const cut = page.markdown.length > max || page.truncated;
  const markdown = page.markdown.slice(0, max);
  const note = cut ? "\n\n[The page was cut to fit.]" : "";
  const sideModel = ctx.ports.sideModel;
  if (!sideModel)
    return textOutput(`Content of ${page.url.href} (as markdown):\n\n${markdown}${note}`);
  const answer = await sideModel.complete(input.prompt, markdown + note, ctx.signal, {
    toolName: "WebFetch",
    agentId: ctx.agentId,
    toolCallId: ctx.callId,
  });
  return textOutput(`From ${page.url.href}:\n\n${answer}`);
}

/** WebFetch: a page as markdown (turndown), with the question answered by the side model when there is one. */
export const webFetchTool = defineTool({
  name: "WebFetch",
  description: describe(
    "WebFetch",
    "Fetches a web page by url and answers prompt about it, using the page converted to markdown.",
  ),
  inputSchema: WebFetchInput,
  inputJsonSchema: builtinInputJsonSchema("WebFetch"),
  isReadOnly: () => true,
  action: async (input) => {
    const url = target(input.url);
    return [{ kind: "network", url: url?.href ?? input.url, domain: url?.hostname ?? "" }];
  },
  title: (input) => `WebFetch ${input.url}`,
  call: webFetch,
});
