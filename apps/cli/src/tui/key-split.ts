import type { Key } from "ink";

/** A control byte a terminal sends for a key (Ctrl+letter, DEL), not a line break or tab (a paste's). */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f;
}

const hasControl = (text: string) => [...text].some((ch) => isControl(ch.codePointAt(0) as number));

function plain(key: Key): Key {
  return {
    ...key,
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
  };
}

/**
 * One read of several keys, as ink hands it over when keys come faster than the screen reads
 * them (a held Backspace, Ctrl+U typed quickly): ink passes the run whole as text, so its
 * control bytes would land in the input. Split into one key per control byte (DEL and
 * Ctrl+H are Backspace, 0x01-0x1A Ctrl+letter) and the text between them. A read without
 * control bytes, or with a line break (a paste), stays as it is. Pure.
 */
export function splitKeys(input: string, key: Key): Array<readonly [string, Key]> {
  if (input.length < 2 || key.ctrl || key.meta || !hasControl(input) || /[\r\n]/.test(input))
    return [[input, key]];
  const out: Array<readonly [string, Key]> = [];
  let text = "";
  const flush = () => {
    if (text) out.push([text, plain(key)]);
    text = "";
  };
  for (const ch of input) {
    const code = ch.codePointAt(0) as number;
    if (!isControl(code)) {
      text += ch;
      continue;
    }
    flush();
    if (code === 0x7f || code === 0x08) out.push(["", { ...plain(key), backspace: true }]);
    else if (code >= 1 && code <= 26)
      out.push([String.fromCharCode(code + 96), { ...plain(key), ctrl: true }]);
  }
  flush();
  return out;
}
