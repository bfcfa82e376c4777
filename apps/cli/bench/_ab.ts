import { reply, startFakeProvider } from "@z-engine/testkit";
import { benchHome, median, run } from "./world.js";
const mains = process.argv.slice(2);
const res: number[][] = mains.map(() => []);
for (let i = 0; i < Number(process.env.N ?? 7); i++) {
  for (const [k, main] of mains.entries()) {
    const provider = await startFakeProvider({ script: [reply.text("hello")] });
    const world = await benchHome();
    const t0 = performance.now();
    let arrived = 0;
    void provider.requestArrived(0).then(() => {
      arrived = performance.now();
    });
    await run([main, "-p", "hi", "--output-format", "json"], world.env(provider), world.repo.root);
    res[k]!.push(arrived - t0);
    await provider.close();
    await world.dispose();
  }
}
for (const [k, main] of mains.entries())
  console.log(main, median(res[k]!).toFixed(0), res[k]!.map((x) => x.toFixed(0)).join(" "));
