// BENCH web.ready: from spawning `zeng-web` (dist/main.js) to a usable page (the session list
// rendered in Chromium). The browser is started beforehand; the median of 5 runs is printed.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser, spawnBin } from "../test/web-harness.js";

const browser = await launchBrowser();
const times: number[] = [];
for (let run = 0; run < 5; run++) {
  const home = await mkdtemp(join(tmpdir(), "zeng-web-bench-"));
  const page = await browser.newPage();
  const started = performance.now();
  const child = spawnBin(home, home, "inherit");
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`zeng-web exited with ${code}`)));
  });
  await page.goto(url);
  await page.getByText("No sessions yet.").waitFor();
  times.push(performance.now() - started);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  await page.close();
  await rm(home, { recursive: true, force: true });
}
await browser.close();
// The baseline: a bare `node -e 0` on this machine now (other work shares the cores).
const bare: number[] = [];
for (let run = 0; run < 5; run++) {
  const started = performance.now();
  await new Promise((resolve) => spawn(process.execPath, ["-e", "0"]).once("exit", resolve));
  bare.push(performance.now() - started);
}
bare.sort((a, b) => a - b);
const baseline = bare[2] ?? 1;
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] ?? 0;
console.log(
  `BENCH web.ready ${Math.round(median)} ms baseline=${Math.round(baseline)} ratio=${(median / baseline).toFixed(1)} [budget=1000 runs=${times.map(Math.round).join(",")}]`,
);
