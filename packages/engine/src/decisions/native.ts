import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FEATURE_DIM } from "./classifiers/features.js";

/** The classifiers that ship in the package (models/<file>). */
export const CLASSIFIERS = {
  credential: "credential.onnx",
  riskyCall: "risky-call.onnx",
} as const;
export type ClassifierName = keyof typeof CLASSIFIERS;

/** The shipped classifiers as a use sees them. */
export interface NativeModels {
  /**
   * The score (0..1) of each feature row under classifier `name`. Resolves to undefined
   * (abstain) when onnxruntime-node is not installed, the model does not load, inference
   * fails or `signal` aborts. Never rejects.
   */
  score(
    name: ClassifierName,
    rows: readonly Float32Array[],
    signal: AbortSignal,
  ): Promise<Float32Array | undefined>;
  /** Starts loading classifier `name` now, so a first score need not wait for it. Never throws. */
  prepare(name: ClassifierName): void;
}

/** The part of onnxruntime-node the runtime uses. */
export interface OrtModule {
  readonly InferenceSession: {
    create(path: string): Promise<OrtSession>;
  };
  readonly Tensor: new (type: "float32", data: Float32Array, dims: readonly number[]) => unknown;
}
interface OrtSession {
  run(feeds: Record<string, unknown>): Promise<Record<string, { readonly data: unknown }>>;
}

/** Loads onnxruntime-node; rejects when the optional dependency is absent. */
async function importOrt(): Promise<OrtModule> {
  const mod = (await import("onnxruntime-node")) as unknown as OrtModule & { default?: OrtModule };
  return mod.InferenceSession ? mod : (mod.default as OrtModule);
}

/** The folder of the shipped .onnx files in the package (`models/` beside `src/` and `dist/`). */
export const MODELS_DIR = fileURLToPath(new URL("../../models/", import.meta.url));

/**
 * Where the shipped .onnx files are, first found: the package's `models/`, then `models/`
 * beside a bundle that carries them (the CLI's `dist/models/`, seen from `dist/main.js` or
 * from a chunk in `dist/chunks/`). Undefined when none holds them. Looked up on first load.
 */
export function shippedModelsDir(): string | undefined {
  const dirs = [
    MODELS_DIR,
    ...["./models/", "../models/"].map((d) => fileURLToPath(new URL(d, import.meta.url))),
  ];
  return dirs.find((dir) => existsSync(join(dir, CLASSIFIERS.credential)));
}

/**
 * The native decision runtime (architecture.md "Runtime model"): onnxruntime-node is loaded
 * on first use, each model once, one model load at a time per process; an absent runtime or
 * model makes every score abstain. CPU only; nothing is downloaded.
 */
export class NativeRuntime implements NativeModels {
  private ort: Promise<OrtModule | undefined> | undefined;
  private readonly sessions = new Map<ClassifierName, Promise<OrtSession | undefined>>();
  private loading: Promise<unknown> = Promise.resolve();
  /** How many model loads ran (for tests: each model loads once). */
  loads = 0;
  /** The largest number of loads that overlapped (one at a time: at most 1). */
  maxConcurrentLoads = 0;
  private running = 0;

  constructor(
    private readonly options: {
      readonly load?: () => Promise<OrtModule>;
      readonly modelsDir?: string;
    } = {},
  ) {}

  private runtime(): Promise<OrtModule | undefined> {
    this.ort ??= (this.options.load ?? importOrt)().catch(() => undefined);
    return this.ort;
  }

  private session(name: ClassifierName): Promise<OrtSession | undefined> {
    let session = this.sessions.get(name);
    if (!session) {
      // Loads queue behind each other: one model load at a time per process.
      session = this.loading.then(() => this.load(name));
      this.loading = session;
      this.sessions.set(name, session);
    }
    return session;
  }

  private async load(name: ClassifierName): Promise<OrtSession | undefined> {
    const ort = await this.runtime();
    const dir = this.options.modelsDir ?? shippedModelsDir();
    const path = dir === undefined ? undefined : join(dir, CLASSIFIERS[name]);
    if (!ort || path === undefined || !existsSync(path)) return undefined;
    this.running++;
    this.maxConcurrentLoads = Math.max(this.maxConcurrentLoads, this.running);
    this.loads++;
    try {
      return await ort.InferenceSession.create(path);
    } catch {
      return undefined;
    } finally {
      this.running--;
    }
  }

  prepare(name: ClassifierName): void {
    void this.session(name);
  }

  async score(
    name: ClassifierName,
    rows: readonly Float32Array[],
    signal: AbortSignal,
  ): Promise<Float32Array | undefined> {
    if (rows.length === 0) return new Float32Array(0);
    try {
      const [ort, session] = await Promise.all([this.runtime(), this.session(name)]);
      if (!ort || !session || signal.aborted) return undefined;
      const batch = new Float32Array(rows.length * FEATURE_DIM);
      for (const [i, row] of rows.entries()) batch.set(row, i * FEATURE_DIM);
      const out = await session.run({
        features: new ort.Tensor("float32", batch, [rows.length, FEATURE_DIM]),
      });
      const data = out.score?.data;
      return data instanceof Float32Array && !signal.aborted ? data : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The process's native runtime, shared by every session and engine. */
export const nativeRuntime = new NativeRuntime();
