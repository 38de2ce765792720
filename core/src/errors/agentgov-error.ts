import { ERROR_CATALOG, type ErrorCatalogEntry, type ErrorCode } from './catalog.js';

/**
 * What the place that raises an error knows about fixing this occurrence (the ref that was not found and
 * how to list refs, the path that does not exist); the catalog's remediation is the default.
 */
export interface SpecificRemediation {
  /** For an agent calling a tool. */
  remediation?: string;
  /** For a person reading the CLI's output, where that differs; defaults to `remediation`. */
  cliRemediation?: string;
}

/** An error as a value: a catalog code, a message for this occurrence, and structured details. */
export class AgentgovError extends Error {
  readonly #specific: SpecificRemediation;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    options: { cause?: unknown } & SpecificRemediation = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AgentgovError';
    this.#specific = { remediation: options.remediation, cliRemediation: options.cliRemediation };
  }

  /** This occurrence's remediation when the raiser gave one, else the catalog's. */
  get remediation(): string {
    return this.#specific.remediation ?? ERROR_CATALOG[this.code].remediation;
  }

  /**
   * The hint the CLI prints: this occurrence's, else the catalog's CLI wording where the tool wording names MCP tools.
   */
  get cliRemediation(): string {
    const entry: ErrorCatalogEntry = ERROR_CATALOG[this.code];
    return this.#specific.cliRemediation ?? this.#specific.remediation ?? entry.cliRemediation ?? entry.remediation;
  }

  /** The remediations this occurrence was raised with (to carry them over to a copy). */
  get specificRemediation(): SpecificRemediation {
    return { ...this.#specific };
  }

  /** The structured shape used by tool error results: `{ error: { code, message, remediation, details } }`. */
  toJSON(): { error: { code: ErrorCode; message: string; remediation: string; details: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, remediation: this.remediation, details: this.details } };
  }
}
