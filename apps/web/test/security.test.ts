import { request } from "node:http";
import { reply } from "@z-engine/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture, type WebFixture } from "./web-harness.js";

// Every request presents the token and this server's own Host and Origin; the event stream
// resumes after the last cursor a client saw (Last-Event-ID), so nothing comes twice.

interface Answer {
  status: number;
  body: string;
}

function call(
  f: WebFixture,
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    until?: RegExp;
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: f.server.port,
        path,
        method: options.method ?? "GET",
        headers: { host: `127.0.0.1:${f.server.port}`, ...options.headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
          if (options.until?.test(body)) {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body });
          }
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

let f: WebFixture;
beforeAll(async () => {
  f = await startFixture({ files: { "a.txt": "a\n" }, script: [reply.text("hello there")] });
});
afterAll(async () => {
  await f?.dispose();
});

describe("the server's checks", { timeout: 90_000 }, () => {
  it("binds 127.0.0.1 and prints a URL with the token", () => {
    expect(f.server.url).toBe(`http://127.0.0.1:${f.server.port}/?token=${f.server.token}`);
    expect(f.server.token.length).toBeGreaterThanOrEqual(40);
  });

  it("refuses a missing or wrong token", async () => {
    expect((await call(f, "/api/sessions")).status).toBe(401);
    expect((await call(f, "/?token=wrong")).status).toBe(401);
    expect((await call(f, "/api/sessions", { headers: { "x-zeng-token": "x" } })).status).toBe(401);
    expect((await call(f, `/?token=${f.server.token}`)).status).toBe(200);
  });

  it("refuses a foreign Host (DNS rebinding) and a foreign Origin (cross-site) even with the token", async () => {
    const token = { "x-zeng-token": f.server.token };
    const rebound = await call(f, "/api/sessions", {
      headers: { ...token, host: `evil.example:${f.server.port}` },
    });
    expect(rebound).toMatchObject({ status: 403 });
    expect(rebound.body).toContain("Host");
    const crossSite = await call(f, "/api/sessions", {
      method: "POST",
      headers: { ...token, origin: "http://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ folder: f.repo.root }),
    });
    expect(crossSite.status).toBe(403);
    const noOrigin = await call(f, "/api/sessions", {
      method: "POST",
      headers: token,
      body: JSON.stringify({ folder: f.repo.root }),
    });
    expect(noOrigin.status).toBe(403);
    const ok = await call(f, "/api/sessions", { headers: token });
    expect(ok.status).toBe(200);
  });

  it("answers bad input with a clear error, and resumes the stream after Last-Event-ID", async () => {
    const origin = `http://127.0.0.1:${f.server.port}`;
    const headers = { "x-zeng-token": f.server.token, origin, "content-type": "application/json" };
    const bad = await call(f, "/api/sessions", { method: "POST", headers, body: "{nope" });
    expect(bad).toMatchObject({ status: 400 });
    const created = await call(f, "/api/sessions", {
      method: "POST",
      headers,
      body: JSON.stringify({ folder: f.repo.root }),
    });
    const { id } = JSON.parse(created.body) as { id: string };
    const notCommand = await call(f, `/api/sessions/${id}/commands`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "launch" }),
    });
    expect(notCommand.status).toBe(400);
    const sent = await call(f, `/api/sessions/${id}/commands`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "submit", text: "hi" }),
    });
    expect(sent.status).toBe(202);
    const events = `/api/sessions/${id}/events?token=${f.server.token}`;
    const all = await call(f, events, { until: /"turnFinished"[\s\S]*\n\n/ });
    const cursors = [...all.body.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(cursors).toEqual(cursors.map((_, i) => i));
    const resumeAt = cursors[Math.floor(cursors.length / 2)] ?? 0;
    const rest = await call(f, events, {
      headers: { "last-event-id": String(resumeAt) },
      until: /"turnFinished"[\s\S]*\n\n/,
    });
    const later = [...rest.body.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(later[0]).toBe(resumeAt + 1);
    expect(later).toEqual(cursors.slice(resumeAt + 1, resumeAt + 1 + later.length));
  });
});
