// What the bundled SDKs see as the globals `Headers` and `FormData` (scripts/bundle-sdk.mjs
// injects this file). Why: in Node 20 both globals are getters that load Node's whole fetch
// (undici, ~25-30 ms of CPU and a WebAssembly HTTP parser that V8 recompiles in the
// background, 13-30 MB) on first touch, and the SDKs touch them while building each request
// (`new Headers()`, `body instanceof FormData`) even when the request goes out through
// `nodeFetch` (node:http). `Headers` here is a small map with the web class's methods;
// `FormData` stands for Node's own without loading it until one is made.

/** A header name/value pair, as `Headers` iterates them. */
type Pair = [string, string];

/** What `new Headers(init)` accepts: another headers object, pairs, or a record. */
export type HeadersLike =
  | Iterable<readonly string[]>
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The subset of the web `Headers` class the SDKs and `nodeFetch` use: names are
 * case-insensitive (kept lower-case), `append` joins values with ", ", iteration is sorted by
 * name as the web class's is. `instanceof` works across copies of this file (the class is
 * registered once per process under a global symbol), so the copy bundled into each SDK and
 * the one `nodeFetch` uses are one class.
 */
class LiteHeaders implements Iterable<Pair> {
  readonly #map = new Map<string, string>();

  constructor(init?: HeadersLike | null) {
    if (init === undefined || init === null) return;
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly string[]>) {
        if (pair.length !== 2) throw new TypeError("Headers: a pair must be [name, value]");
        this.append(pair[0] as string, pair[1] as string);
      }
      return;
    }
    for (const [name, value] of Object.entries(init)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) this.append(name, String(one));
    }
  }

  append(name: string, value: string): void {
    const key = String(name).toLowerCase();
    const now = this.#map.get(key);
    this.#map.set(key, now === undefined ? String(value) : `${now}, ${value}`);
  }

  set(name: string, value: string): void {
    this.#map.set(String(name).toLowerCase(), String(value));
  }

  get(name: string): string | null {
    return this.#map.get(String(name).toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#map.has(String(name).toLowerCase());
  }

  delete(name: string): void {
    this.#map.delete(String(name).toLowerCase());
  }

  forEach(callback: (value: string, name: string, headers: LiteHeaders) => void): void {
    for (const [name, value] of this) callback(value, name, this);
  }

  *entries(): IterableIterator<Pair> {
    const names = [...this.#map.keys()].sort();
    for (const name of names) yield [name, this.#map.get(name) as string];
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<Pair> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }
}

const HEADERS_KEY = Symbol.for("z-engine.llm.Headers");
const registry = globalThis as { [HEADERS_KEY]?: typeof LiteHeaders };

/** The process's one `Headers` class for the SDKs and `nodeFetch` (see `LiteHeaders`). */
const SharedHeaders: typeof LiteHeaders = registry[HEADERS_KEY] ?? LiteHeaders;
registry[HEADERS_KEY] = SharedHeaders;
export { SharedHeaders as Headers };

/**
 * Node's `FormData`, loaded only when one is made: `value instanceof FormData` answers by the
 * value's tag (a real `FormData` exists only once Node's fetch is loaded), so the SDKs'
 * checks of each request body load nothing.
 */
export class FormData {
  constructor(...args: unknown[]) {
    const Real = globalThis.FormData as unknown as new (...a: unknown[]) => object;
    // biome-ignore lint/correctness/noConstructorReturn: stands for Node's own class.
    return new Real(...args) as FormData;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "FormData"
    );
  }
}
