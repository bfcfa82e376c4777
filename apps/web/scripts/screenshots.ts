// Regenerates the README's screenshots (docs/<screen>-1280.png and -390.png) from the real
// page over a scripted session: `pnpm --filter @z-engine/web screenshots` after a build.
// Every screen is reached as a user would reach it, so a screenshot that still renders is
// one more check that the screen works.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { part, reply, type ScriptResponse, when } from "@z-engine/testkit";
import type { ModelRequest } from "@z-engine/protocol";
import type { Page } from "playwright-core";
import {
  launchBrowser,
  newSession,
  openTab,
  send,
  startFixture,
  type WebFixture,
} from "../test/web-harness.js";

const DOCS = join(import.meta.dirname, "..", "docs");
const SIZES = [
  { name: "1280", width: 1280, height: 800 },
  { name: "390", width: 390, height: 844 },
] as const;

const MARK = "MARKER-REVIEWER: you review code.";
const isSub = (r: ModelRequest) => JSON.stringify(r.system).includes(MARK);
const isMain = (r: ModelRequest) => !isSub(r);

const FILES = {
  "package.json": JSON.stringify(
    { name: "login-demo", version: "1.0.0", type: "module", scripts: { test: "node --test" } },
    null,
    2,
  ),
  "src/auth/token.js":
    "export function isExpired(token, now) {\n  // The token is valid until its expiry time.\n  return now > token.expiresAt;\n}\n\nexport function remaining(token, now) {\n  return token.expiresAt - now;\n}\n",
  "test/token.test.js":
    'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { isExpired } from "../src/auth/token.js";\n\ntest("a token expires at its expiry time", () => {\n  assert.equal(isExpired({ expiresAt: 100 }, 100), true);\n});\n',
  "AGENTS.md": "Run the tests with Verify after each change.\n",
  ".claude/agents/reviewer.md": `---\nname: reviewer\ndescription: Reviews a change\ntools: Read\n---\n${MARK}\n`,
  ".z-engine/settings.toml":
    '[permissions]\ndeny = ["Bash(git push:*)"]\nallow = ["Bash(npm test:*)"]\n',
};

function script(f: WebFixture): ScriptResponse[] {
  const token = f.repo.path("src/auth/token.js");
  return [
    when(
      isMain,
      reply.of(
        part.thinking(
          "The test says a token expires at its expiry time; the comparison is strict.",
        ),
        part.text("Let me run the tests first."),
        part.toolCall("Verify", { checks: ["npm:test"] }),
        part.usage({ input: 2400, output: 120, cacheRead: 1800 }),
      ),
    ),
    when(
      isMain,
      reply.toolCall(
        "Read",
        { file_path: token },
        { usage: { input: 2600, output: 40, cacheRead: 2200 } },
      ),
    ),
    when(
      isMain,
      reply.toolCall(
        "Edit",
        {
          file_path: token,
          old_string:
            "  // The token is valid until its expiry time.\n  return now > token.expiresAt;",
          new_string: "  // A token expires at its expiry time.\n  return now >= token.expiresAt;",
        },
        { usage: { input: 2900, output: 90, cacheRead: 2500 } },
      ),
    ),
    when(
      isMain,
      reply.toolCall(
        "Agent",
        {
          description: "Review the fix",
          prompt: "Review src/auth/token.js",
          subagent_type: "reviewer",
        },
        { usage: { input: 3000, output: 60 } },
      ),
    ),
    when(
      isSub,
      reply.toolCall("Read", { file_path: token }, { usage: { input: 1500, output: 30 } }),
    ),
    when(
      isSub,
      reply.text("The fix is right: `>=` makes the expiry time itself expired.", {
        usage: { input: 1700, output: 40 },
      }),
    ),
    when(
      isMain,
      reply.of(
        part.toolCall("Verify", { checks: ["npm:test"] }),
        part.toolCall("Bash", {
          command: "sleep 600",
          description: "dev server",
          run_in_background: true,
        }),
        part.usage({ input: 3200, output: 50 }),
      ),
    ),
    when(
      isMain,
      reply.text(
        "Fixed: `isExpired` now treats the expiry time as expired.\n\n```js\nreturn now >= token.expiresAt;\n```\n\n- **src/auth/token.js**: `>` became `>=`\n- the reviewer agrees, and `npm test` passes",
        { usage: { input: 3400, output: 160, cacheRead: 3000 } },
      ),
    ),
    when(isMain, reply.toolCall("Bash", { command: "npm publish --dry-run" })),
    when(isMain, reply.text("Understood: I will not publish.")),
  ];
}

async function shoot(page: Page, screen: string, size: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: join(DOCS, `${screen}-${size}.png`) });
  console.log(`docs/${screen}-${size}.png`);
}

async function scenes(f: WebFixture, size: (typeof SIZES)[number]): Promise<void> {
  const browser = await launchBrowser();
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    colorScheme: "light",
  });
  const p = await context.newPage();
  await newSession(p, f);
  const id = new URL(p.url()).searchParams.get("session");
  await p.getByLabel("Mode", { exact: true }).selectOption("bypass");
  await send(p, "The login test fails. Please fix it.");
  await p.getByText("Fixed: ").waitFor({ timeout: 60_000 });
  await p.getByTestId("turn-end").first().waitFor();
  await p.getByTestId("tool").filter({ hasText: "Edit" }).locator("summary").click();
  await shoot(p, "session", size.name);
  await openTab(p, "Changes");
  await p.getByTestId("changed-file").first().waitFor();
  await shoot(p, "changes", size.name);
  await openTab(p, "Agents");
  await p.getByTestId("agent").first().getByRole("button").first().click();
  await p.getByTestId("agent-transcript").getByTestId("assistant-message").first().waitFor();
  await shoot(p, "agents", size.name);
  await openTab(p, "Context");
  await p.getByTestId("context-usage").waitFor();
  await shoot(p, "context", size.name);
  await openTab(p, "Overview");
  await shoot(p, "overview", size.name);
  await p.keyboard.press("Escape");
  // An approval card (ask mode), which the Inbox shows too.
  await p.getByLabel("Mode", { exact: true }).selectOption("ask");
  await send(p, "Publish it.");
  await p.getByTestId("approval").waitFor();
  await shoot(p, "approval", size.name);
  await p.goto(`${f.server.url}&view=inbox`);
  await p.getByTestId("inbox-item").first().waitFor();
  await shoot(p, "inbox", size.name);
  await p.getByTestId("inbox-item").getByRole("button", { name: "Deny" }).click();
  await p.getByText("Nothing is waiting on you.").waitFor();
  await p.goto(`${f.server.url}&session=${id}`);
  await p.getByText("Understood: I will not publish.").waitFor();
  await p.goto(`${f.server.url}&view=settings${id ? `&session=${id}` : ""}`);
  await p.getByTestId("rules").waitFor();
  await shoot(p, "settings", size.name);
  await p.goto(f.server.url);
  await p.getByTestId("home").waitFor();
  await shoot(p, "home", size.name);
  await p.keyboard.press("Control+k");
  await p.getByTestId("palette").waitFor();
  await p.keyboard.type("theme");
  await shoot(p, "palette", size.name);
  await p.keyboard.press("Escape");
  await context.close();
  // The dark theme (the system's preference) on the same session.
  const dark = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    colorScheme: "dark",
  });
  const d = await dark.newPage();
  await d.goto(`${f.server.url}&session=${id}`);
  await d.getByText("Fixed: ").waitFor();
  await shoot(d, "session-dark", size.name);
  await browser.close();
}

await mkdir(DOCS, { recursive: true });
for (const size of SIZES) {
  const f = await startFixture({ files: FILES, script: [] });
  f.model.push(...script(f));
  try {
    await scenes(f, size);
  } finally {
    await f.dispose();
  }
}
