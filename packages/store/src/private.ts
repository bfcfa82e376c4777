// Sessions hold conversations, tool output and file contents: only their owner may read them.

/** The mode of every folder the store creates (owner only). */
export const PRIVATE_DIR = 0o700;

/** The mode of every file the store creates (owner read and write). */
export const PRIVATE_FILE = 0o600;
