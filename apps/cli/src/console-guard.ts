import { format } from "node:util";

/**
 * Keeps stdout for the chosen output format alone: whatever a library prints through
 * `console` (the Anthropic SDK warns about deprecated models on every request) goes to
 * stderr, each distinct message once.
 */
export function guardConsole(stderr: (text: string) => void): void {
  const seen = new Set<string>();
  const toStderr = (...args: unknown[]) => {
    const text = format(...args);
    if (seen.has(text)) return;
    seen.add(text);
    stderr(`${text}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
  console.error = toStderr;
}
