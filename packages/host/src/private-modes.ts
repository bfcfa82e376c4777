/**
 * The modes of what the engine keeps in its data folder (checkpoints hold copies of the
 * project's files, 0600 ones included): folders and files the user's alone.
 */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;
