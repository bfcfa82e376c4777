import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { credentialFeatures, denseRow, riskyCallFeatures } from "./classifiers/features.js";
import { MODELS_DIR, NativeRuntime, type OrtModule } from "./native.js";

const never = new AbortController().signal;
const check = (file: string) =>
  JSON.parse(readFileSync(join(MODELS_DIR, file), "utf8")).samples as Array<
    Record<string, string> & { score: number }
  >;

describe("NativeRuntime with the shipped models", () => {
  it("loads credential.onnx in onnxruntime-node and matches the TypeScript reference scores", async () => {
    const runtime = new NativeRuntime();
    const samples = check("credential.check.json");
    const rows = samples.map((s) => denseRow(credentialFeatures(s.token ?? "", s.context ?? "")));
    const scores = await runtime.score("credential", rows, never);
    expect(scores).toBeInstanceOf(Float32Array);
    for (const [i, s] of samples.entries()) expect(scores?.[i]).toBeCloseTo(s.score, 5);
  });

  it("loads risky-call.onnx and matches the TypeScript reference scores", async () => {
    const runtime = new NativeRuntime();
    const samples = check("risky-call.check.json");
    const scores = await runtime.score(
      "riskyCall",
      samples.map((s) => denseRow(riskyCallFeatures(s.text ?? ""))),
      never,
    );
    for (const [i, s] of samples.entries()) expect(scores?.[i]).toBeCloseTo(s.score, 5);
  });

  it("ships files of a few hundred KB at most", () => {
    for (const f of ["credential.onnx", "risky-call.onnx"])
      expect(readFileSync(join(MODELS_DIR, f)).length).toBeLessThan(300_000);
  });

  it("loads each model once, one load at a time, however many scores ask at once", async () => {
    const runtime = new NativeRuntime();
    const row = [denseRow(riskyCallFeatures("Bash: ls"))];
    await Promise.all([
      runtime.score("riskyCall", row, never),
      runtime.score("credential", [denseRow(credentialFeatures("abc", ""))], never),
      runtime.score("riskyCall", row, never),
      runtime.score("credential", [denseRow(credentialFeatures("abc", ""))], never),
    ]);
    expect(runtime.loads).toBe(2);
    expect(runtime.maxConcurrentLoads).toBe(1);
  });
});

describe("NativeRuntime without a runtime", () => {
  it("abstains (undefined) when onnxruntime-node cannot be loaded", async () => {
    const runtime = new NativeRuntime({
      load: () => Promise.reject(new Error("Cannot find package 'onnxruntime-node'")),
    });
    expect(await runtime.score("riskyCall", [denseRow(riskyCallFeatures("Bash: ls"))], never)).toBe(
      undefined,
    );
  });

  it("abstains when the model file is missing or inference throws", async () => {
    const missing = new NativeRuntime({ modelsDir: "/nonexistent" });
    expect(await missing.score("credential", [new Float32Array(4096)], never)).toBeUndefined();
    const broken: OrtModule = {
      InferenceSession: {
        create: async () => ({
          run: async () => {
            throw new Error("bad input");
          },
        }),
      },
      Tensor: class {} as unknown as OrtModule["Tensor"],
    };
    const failing = new NativeRuntime({ load: async () => broken });
    expect(await failing.score("credential", [new Float32Array(4096)], never)).toBeUndefined();
  });
});
