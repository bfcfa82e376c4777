/**
 * The features of the shipped classifiers: hashed character and word n-grams, L2-normalised,
 * in a float vector of FEATURE_DIM. The training script (scripts/train-classifiers.ts) and the
 * runtime compute them with this one module, so what was trained is what runs.
 */

/** The width of a feature vector (the model's input is `[batch, FEATURE_DIM]`). */
export const FEATURE_DIM = 4096;

/** A sparse feature vector: parallel index and value arrays (indices unique). */
export interface SparseFeatures {
  readonly index: Int32Array;
  readonly value: Float32Array;
}

/** 32-bit FNV-1a of a string's UTF-16 code units. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

class Bag {
  readonly counts = new Map<number, number>();
  add(key: string): void {
    const i = fnv1a(key) % FEATURE_DIM;
    this.counts.set(i, (this.counts.get(i) ?? 0) + 1);
  }
  grams(prefix: string, text: string, n: number): void {
    for (let i = 0; i + n <= text.length; i++) this.add(`${prefix}${text.slice(i, i + n)}`);
  }
  sparse(): SparseFeatures {
    const entries = [...this.counts].sort((a, b) => a[0] - b[0]);
    let norm = 0;
    for (const [, c] of entries) norm += c * c;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    return {
      index: Int32Array.from(entries.map(([i]) => i)),
      value: Float32Array.from(entries.map(([, c]) => c * scale)),
    };
  }
}

/** `A` upper, `a` lower, `0` digit, the character itself otherwise. */
function shape(text: string): string {
  let out = "";
  for (const c of text) {
    if (c >= "A" && c <= "Z") out += "A";
    else if (c >= "a" && c <= "z") out += "a";
    else if (c >= "0" && c <= "9") out += "0";
    else out += c;
  }
  return out;
}

/** Shannon entropy of the characters, in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Features of a candidate credential `token` seen after `context` (the text just before it
 * on its line): the token's raw 3-grams and its first four characters, the 4-grams of its
 * character-class shape, its length and entropy in buckets, and the context's words.
 */
export function credentialFeatures(token: string, context: string): SparseFeatures {
  const bag = new Bag();
  bag.grams("r:", token.toLowerCase(), 3);
  bag.add(`p:${token.slice(0, 4).toLowerCase()}`);
  bag.grams("s:", shape(token), 4);
  bag.add(`len:${Math.min(8, Math.floor(token.length / 8))}`);
  bag.add(`ent:${Math.floor(entropy(token) * 2)}`);
  const classes = shape(token);
  for (const cls of ["A", "a", "0"]) bag.add(`has${cls}:${classes.includes(cls)}`);
  for (const word of context
    .toLowerCase()
    .match(/[a-z]+/g)
    ?.slice(-4) ?? [])
    bag.add(`c:${word}`);
  if (/[:=]\s*["']?$/.test(context)) bag.add("c:assign");
  return bag.sparse();
}

/**
 * Features of a tool call as text (`Bash: rm -rf build`, `Write: /etc/hosts`): lower-cased
 * words, word pairs, and the character 3-grams of each word.
 */
export function riskyCallFeatures(text: string): SparseFeatures {
  const bag = new Bag();
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  for (const [i, w] of words.entries()) {
    bag.add(`w:${w}`);
    if (i > 0) bag.add(`b:${words[i - 1]} ${w}`);
    bag.grams("g:", ` ${w} `, 3);
  }
  return bag.sparse();
}

/** The dense row of `features`, for the model's input tensor. */
export function denseRow(features: SparseFeatures): Float32Array {
  const row = new Float32Array(FEATURE_DIM);
  for (let k = 0; k < features.index.length; k++)
    row[features.index[k] as number] = features.value[k] as number;
  return row;
}

/** Logistic regression's score, the TypeScript reference of the ONNX graph. */
export function referenceScore(
  weights: Float32Array,
  bias: number,
  features: SparseFeatures,
): number {
  let z = bias;
  for (let k = 0; k < features.index.length; k++)
    z += (weights[features.index[k] as number] as number) * (features.value[k] as number);
  return 1 / (1 + Math.exp(-z));
}
