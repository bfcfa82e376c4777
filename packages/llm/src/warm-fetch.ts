/**
 * Loads Node's fetch now. Node loads it (undici, ~20-40 ms) on the first use of `fetch` or
 * `Headers`; the SDKs need it for their first request, so each SDK loader calls this once the
 * SDK is in, while a session opens, instead of on the first request's path (issue 18).
 */
export function warmFetch(): void {
  void globalThis.Headers;
}
