import type {
  McpClientHooks,
  McpElicitation,
  McpElicitationResult,
  McpRoot,
} from "@z-engine/integrations";

/** What the session gives its servers to answer: elicitation, roots, and (a host's) sampling. */
export interface McpSessionHooks {
  /** Asks the user (the InteractionPort); headless sessions decline with a notice. */
  readonly elicit?: (
    server: string,
    request: McpElicitation,
    signal: AbortSignal,
  ) => Promise<McpElicitationResult>;
  /** The project root and the added directories, as `file://` roots. */
  readonly roots?: () => readonly McpRoot[];
  /** A host that opts in to sampling answers `sampling/createMessage` with its own model. */
  readonly sample?: (
    server: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ) => Promise<Record<string, unknown>>;
}

/** One server's client hooks from the session's: each one given becomes a capability. */
export function serverHooks(server: string, hooks: McpSessionHooks): McpClientHooks {
  const { elicit, roots, sample } = hooks;
  return {
    ...(elicit ? { onElicit: (request, signal) => elicit(server, request, signal) } : {}),
    ...(roots ? { roots } : {}),
    ...(sample ? { onSample: (params, signal) => sample(server, params, signal) } : {}),
  };
}
