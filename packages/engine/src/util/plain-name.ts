/**
 * Whether a definition's name is plain: no `/` or `\\`, not `.` or `..`, no control
 * characters, so that it names one file in its folder and nothing beyond it.
 */
export function isPlainName(name: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
  return name !== "." && name !== ".." && !/[/\\\u0000-\u001f\u007f]/.test(name);
}
