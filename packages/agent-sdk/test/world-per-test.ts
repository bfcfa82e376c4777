import { afterEach } from "vitest";
import { world, type World } from "./world.js";

/** A maker of worlds that are disposed after each test of the file that calls it. */
export function worldPerTest(): typeof world {
  const open: World[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((w) => w.dispose()));
  });
  return async (options) => {
    const w = await world(options);
    open.push(w);
    return w;
  };
}
