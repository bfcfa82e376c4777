import type { WireFormat } from "@z-engine/testkit";
import { CONTENT_ROWS } from "./rows-content.js";
import { RETRY_ROWS } from "./rows-retry.js";
import type { FaultRow } from "./row.js";

/** Every row of the provider fault matrix (issue 47), each run over both wire formats. */
export const FAULT_ROWS: readonly FaultRow[] = [...RETRY_ROWS, ...CONTENT_ROWS];

/** The wire formats the matrix runs over. */
export const WIRE_FORMATS: readonly WireFormat[] = ["anthropic", "openai"];

/** One run of a row over a format: passed, or the failure's message. */
export interface RowResult {
  readonly row: string;
  readonly format: WireFormat;
  readonly passed: boolean;
  readonly error?: string;
}

/** Runs every row over every format, one at a time. Never rejects. */
export async function runFaultMatrix(
  onResult: (result: RowResult) => void = () => {},
): Promise<RowResult[]> {
  const out: RowResult[] = [];
  for (const row of FAULT_ROWS) {
    for (const format of WIRE_FORMATS) {
      let result: RowResult;
      try {
        await row.run(format);
        result = { row: row.name, format, passed: true };
      } catch (error) {
        result = { row: row.name, format, passed: false, error: (error as Error).message };
      }
      out.push(result);
      onResult(result);
    }
  }
  return out;
}
