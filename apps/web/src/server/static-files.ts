import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { join } from "node:path";

/** The bundled page: its script and style sheet, held in memory. */
export interface StaticFiles {
  readonly script: Buffer;
  readonly style: Buffer;
}

/** Reads the bundle from `dir` (dist/public). Rejects when it was not built. */
export async function loadStaticFiles(dir: string): Promise<StaticFiles> {
  const [script, style] = await Promise.all([
    readFile(join(dir, "app.js")),
    readFile(join(dir, "app.css")),
  ]);
  return { script, style };
}

const SECURITY_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

function page(token: string): string {
  const t = encodeURIComponent(token);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Z Engine</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app.css?token=${t}">
</head>
<body>
<div id="root"></div>
<script type="module" src="/app.js?token=${t}"></script>
</body>
</html>
`;
}

/** Serves the page at `/` and its two assets; anything else is a 404. */
export function serveStatic(
  files: StaticFiles,
  url: URL,
  token: string,
  response: ServerResponse,
): void {
  const send = (type: string, body: string | Buffer) => {
    response.writeHead(200, { "content-type": type, ...SECURITY_HEADERS });
    response.end(body);
  };
  if (url.pathname === "/" || url.pathname.startsWith("/s/")) {
    send("text/html; charset=utf-8", page(token));
  } else if (url.pathname === "/app.js") {
    send("text/javascript; charset=utf-8", files.script);
  } else if (url.pathname === "/app.css") {
    send("text/css; charset=utf-8", files.style);
  } else {
    response.writeHead(404, { "content-type": "text/plain", ...SECURITY_HEADERS });
    response.end("not found");
  }
}
