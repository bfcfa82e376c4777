/** A tool listing after `tools/list_changed` waits for the server to be quiet this long. */
export const LIST_QUIET_MS = 30;
/** ...but no longer than this after the first notice. */
export const LIST_MAX_WAIT_MS = 2000;

/**
 * Coalesces `tools/list_changed`: a flood costs one listing, not one per notice. The listing
 * starts once the server has been quiet for {@link LIST_QUIET_MS} (or {@link LIST_MAX_WAIT_MS}
 * after the first notice, for a server that never stops), and notices that come while it
 * runs ask for one more. `running` is set from the first notice on, so that a request can
 * wait for the new list.
 */
export class ToolRefresher {
  /** The refresh under way (from the first notice until the list arrived). */
  running: Promise<void> | undefined;
  private again = false;
  private quiet: (() => void) | undefined;

  /** `list` fetches and applies the list; `live` says whether the connection still holds. */
  constructor(
    private readonly list: () => Promise<void>,
    private readonly live: () => boolean,
  ) {}

  /** A `tools/list_changed` notice came. */
  changed(): void {
    this.again = true;
    if (this.running) {
      this.quiet?.();
      return;
    }
    const run = (async () => {
      while (this.again && this.live()) {
        await this.quietPeriod();
        this.again = false;
        await this.list();
      }
    })().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
  }

  /** Resolves once no notice came for LIST_QUIET_MS, or LIST_MAX_WAIT_MS passed. */
  private quietPeriod(): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        clearTimeout(cap);
        this.quiet = undefined;
        resolve();
      };
      const cap = setTimeout(done, LIST_MAX_WAIT_MS).unref();
      this.quiet = () => {
        clearTimeout(timer);
        timer = setTimeout(done, LIST_QUIET_MS).unref();
      };
      this.quiet();
    });
  }
}
