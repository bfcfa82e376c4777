import { parseRule } from "@z-engine/policy";

/** Checks one rule's form: undefined when it parses, else the parser's reason. */
export function ruleError(rule: string): string | undefined {
  const parsed = parseRule(rule);
  return parsed.ok ? undefined : parsed.error;
}
