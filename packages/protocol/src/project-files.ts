/**
 * The project-files door: how code that reads what a project controls (instruction files and
 * their imports, agent, command, skill, output-style and rule definitions, a command's `@path`
 * includes, the repo map, the decision layer's documents) gets at a file. Host implements it
 * (`createProjectFileReader`); context is handed one, so that no package below the engine
 * reads a project file with `node:fs` itself.
 */

/** Why the door did not hand over a file's text. */
export type ProjectFileRefusal =
  /** Nothing is there (a dangling link included). */
  | "missing"
  /** Its real path (symlinks followed) leaves the folders this reader may read. */
  | "outside"
  /** The Read rules refuse it: a deny rule, or a read that would ask (nobody is asked here). */
  | "denied"
  /** A folder, a FIFO, a device or a socket: only regular files are read. */
  | "notRegular"
  /** Over the size the caller allowed (and the caller did not ask for a cut). */
  | "tooLarge"
  /** An I/O error, or the file changed under the reader (a link appeared while it was opened). */
  | "unreadable";

/** A file the door admitted: where it really is, and what it is. */
export interface ProjectFileAdmitted {
  readonly ok: true;
  /** The path as asked for (absolute). */
  readonly path: string;
  /** The real absolute path: `..` and every symlink resolved. */
  readonly realPath: string;
  /** Its size in bytes when it was looked at. */
  readonly size: number;
}

/** A file the door refused, and why (a sentence for a notice, naming the path). */
export interface ProjectFileRefused {
  readonly ok: false;
  readonly path: string;
  /** Where it leads, when that is known (a link out of the project names its target). */
  readonly realPath?: string;
  readonly reason: ProjectFileRefusal;
  readonly message: string;
}

/** What {@link ProjectFileReader.admit} found. */
export type ProjectFileAdmission = ProjectFileAdmitted | ProjectFileRefused;

/** A file's text as the door read it. */
export type ProjectFileText =
  | (ProjectFileAdmitted & {
      /** The UTF-8 text (at most `maxBytes` of it). */
      readonly text: string;
      /** True when the file was longer than `maxBytes` and `cut` was asked for. */
      readonly cut: boolean;
    })
  | ProjectFileRefused;

/** How much of a file to read. */
export interface ProjectFileReadOptions {
  /** Most bytes read (the reader's default when absent). */
  readonly maxBytes?: number;
  /** True: a longer file gives its first `maxBytes` and `cut: true`; false (default): `tooLarge`. */
  readonly cut?: boolean;
}

/** One entry of a folder as listed by the door: links are reported as links, never followed. */
export interface ProjectDirEntry {
  readonly name: string;
  readonly kind: "file" | "folder" | "link" | "other";
}

/**
 * The one reader of project-controlled files. Every method takes an absolute path, resolves
 * it to its real path and answers for that; none follows a link to a place its rules do not
 * admit, opens anything but a regular file, or reads more than the size asked for. Never
 * rejects: every failure is a value.
 */
export interface ProjectFileReader {
  /** Whether the file may be read, without reading it. */
  admit(path: string): Promise<ProjectFileAdmission>;
  /** The file's text, or why not. */
  readText(path: string, options?: ProjectFileReadOptions): Promise<ProjectFileText>;
  /**
   * A folder's entries, sorted by name; undefined when it is missing, not a folder, or a
   * folder the reader may not read (its real path leaves the allowed folders).
   */
  list(path: string): Promise<readonly ProjectDirEntry[] | undefined>;
  /** The real path (symlinks followed), or undefined when nothing is there. */
  realPath(path: string): Promise<string | undefined>;
}
