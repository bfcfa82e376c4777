import { spawn } from "node:child_process";

/** The program that opens a page: `$BROWSER` (its words, `%s` for the URL), else the platform's. */
export function browserCommand(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): string[] {
  const configured = env.BROWSER?.trim();
  if (configured) {
    const words = configured.split(/\s+/);
    return words.includes("%s") ? words.map((w) => (w === "%s" ? url : w)) : [...words, url];
  }
  if (platform === "darwin") return ["open", url];
  if (platform === "win32") return ["rundll32", "url.dll,FileProtocolHandler", url];
  return ["xdg-open", url];
}

/**
 * Opens an authorization page in the user's browser: only an http(s) URL (the page comes
 * from a server's metadata, which may be hostile), passed as one argument to the program (no
 * shell). Resolves whether or not a browser started (the URL is printed beside it anyway);
 * never rejects for a missing program.
 */
export function openInBrowser(
  url: URL,
  env: Readonly<Record<string, string | undefined>>,
): Promise<boolean> {
  if (url.protocol !== "https:" && url.protocol !== "http:") return Promise.resolve(false);
  const [program, ...args] = browserCommand(url.href, env);
  if (!program) return Promise.resolve(false);
  return new Promise((resolve) => {
    try {
      const child = spawn(program, args, { stdio: "ignore", detached: true, env: { ...env } });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
