import type { ProviderKind } from "@z-engine/protocol";

/** The wire format of a request, by path. */
export type WireFormat = ProviderKind;

/** One request the fake provider received, as it arrived. */
export interface FakeProviderRequest {
  format: WireFormat;
  method: string;
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The key it carried as `x-api-key` or `Authorization: Bearer`. */
  apiKey: string | undefined;
  /** The parsed JSON body (the raw text when it was not JSON). */
  body: unknown;
  stream: boolean;
  model: string;
}
