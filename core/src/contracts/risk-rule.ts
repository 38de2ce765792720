/**
 * A source of risk rules. Rules are data (YAML validated against the rule schema);
 * a plugin contributes either a rules file or rule objects.
 */
export interface RiskRuleSource {
  name: string;
  /** Absolute path of a YAML rules file. */
  file?: string;
  /** Rule objects in the same shape as the YAML file's `rules` entries. */
  rules?: unknown[];
}
