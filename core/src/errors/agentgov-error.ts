import { ERROR_CATALOG, type ErrorCatalogEntry, type ErrorCode } from './catalog.js';

/** An error as a value: a catalog code, a message for this occurrence, and structured details. */
export class AgentgovError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AgentgovError';
  }

  get remediation(): string {
    return ERROR_CATALOG[this.code].remediation;
  }

  /** The hint the CLI prints: the catalog's CLI wording where the tool wording names MCP tools. */
  get cliRemediation(): string {
    const entry: ErrorCatalogEntry = ERROR_CATALOG[this.code];
    return entry.cliRemediation ?? entry.remediation;
  }

  /** The structured shape used by tool error results: `{ error: { code, message, remediation, details } }`. */
  toJSON(): { error: { code: ErrorCode; message: string; remediation: string; details: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, remediation: this.remediation, details: this.details } };
  }
}
