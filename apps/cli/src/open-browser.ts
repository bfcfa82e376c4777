import { homedir } from "node:os";
import { childEnvironment, spawnChild } from "@z-engine/engine";

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
 * shell), through the child-process door. Resolves whether or not a browser started (the URL is printed beside it anyway);
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
      // Through the child-process door: the browser starts from the scrubbed environment (no
      // provider key or token reaches it), in the user's home folder, not the project.
      const child = spawnChild({
        program,
        args,
        folder: { path: env.HOME || homedir(), reason: "userChosen" },
        env: childEnvironment(env),
        stdio: "ignore",
      });
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
