import { AgentgovError, createLogger, parseLogLevel, type ErrorCode, type Logger, type LogLevel } from '@agentgov/core';
import { Command, Option, type CommandClass } from 'clipanion';
import { EXIT, exitCodeForError, type ExitCode } from '../exit-codes.js';

/**
 * Base of every agentgov command: errors are values with codes. An AgentgovError prints
 * `error [CODE]: message` and its remediation, and maps to a documented exit code; anything else
 * is an internal error (exit 70) whose stack is shown only at DEBUG.
 */
export abstract class AgentgovCommand extends Command {
  abstract run(): Promise<number>;

  /** Set by commands that take `--json` ({@link jsonOption}): errors then also go to stdout as `{error}`. */
  json?: boolean;

  /** Writes `value` as the command's one JSON document on stdout (`--json`). */
  writeJson(value: unknown): void {
    this.context.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** One JSON line on stdout: a long-running command's state change (`--json`). */
  writeLine(value: unknown): void {
    this.context.stdout.write(`${JSON.stringify(value)}\n`);
  }

  /**
   * A failure the command itself found: `error [CODE]: message` on stderr (and, with `--json`,
   * `{error: {code, message}}` on stdout), exiting with the code's documented exit code unless
   * `exit` says otherwise (a check that failed is 1 whatever its error code).
   */
  fail(code: ErrorCode, message: string, exit: ExitCode = exitCodeForError(code)): ExitCode {
    this.context.stderr.write(`error [${code}]: ${message}\n`);
    if (this.json) this.writeJson({ error: { code, message } });
    return exit;
  }

  protected logLevelOption(): LogLevel {
    return 'INFO';
  }

  protected logger(level: LogLevel = this.logLevelOption()): Logger {
    return createLogger({ level, stream: this.context.stderr });
  }

  async execute(): Promise<number> {
    try {
      return await this.run();
    } catch (error) {
      return this.report(error);
    }
  }

  /**
   * A value clipanion was told is optional so that its absence is named: a missing required option
   * is a usage error saying which one (clipanion itself can only answer "Command not found").
   */
  protected required<T>(value: T | undefined, name: string, what: string): T {
    if (value === undefined) {
      const usage = this.cli.usage(this.constructor as CommandClass, { prefix: 'usage: ' }).trim();
      throw new AgentgovError('E_INVALID_ARGUMENT', `missing required ${name} (${what})\n${usage}`);
    }
    return value;
  }

  protected report(error: unknown): ExitCode {
    // core's paths module (gate path: no error catalog) throws plain errors carrying a catalog code.
    if (
      !(error instanceof AgentgovError) &&
      error instanceof Error &&
      (error as NodeJS.ErrnoException).code === 'E_CONFIG_INVALID'
    ) {
      error = new AgentgovError('E_CONFIG_INVALID', error.message);
    }
    if (error instanceof AgentgovError) {
      this.context.stderr.write(`error [${error.code}]: ${error.message}\n  hint: ${error.cliRemediation}\n`);
      if (this.json)
        this.writeJson({ error: { code: error.code, message: error.message, remediation: error.cliRemediation } });
      return exitCodeForError(error.code);
    }
    const message = error instanceof Error ? error.message : String(error);
    this.context.stderr.write(`error [E_INTERNAL]: ${message}\n`);
    if (this.json) this.writeJson({ error: { code: 'E_INTERNAL', message } });
    if (this.logLevelOption() === 'DEBUG' && error instanceof Error && error.stack)
      this.context.stderr.write(`${error.stack}\n`);
    return EXIT.INTERNAL;
  }
}

/** `--config PATH`, shared by every command that loads the configuration (resolution order in docs/config.md). */
export const configOption = () =>
  Option.String('--config', {
    description:
      'Your config file (default: $AGENTGOV_CONFIG, else $AGENTGOV_HOME/config.yaml); ' +
      './agentgov.yaml merges over it, only tightening',
  });

/**
 * `--json`, shared by every command whose output a script may read: one JSON document on stdout
 * (or, for a server, one JSON line per state change); on failure `{error: {code, message}}`.
 */
export const jsonOption = (what: string) =>
  Option.Boolean('--json,--json-output', false, {
    description: `Print ${what} instead of text (default: false)`,
  });

/** `--log-level LEVEL`, shared by commands that log; checked by `toLogLevel` (a bad value is a usage error). */
export const logLevelOption = () =>
  Option.String('--log-level', 'INFO', {
    description: 'Logging verbosity: DEBUG, INFO, WARNING or ERROR (default: INFO)',
  });

export function toLogLevel(value: string): LogLevel {
  const level = parseLogLevel(value);
  if (!level)
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `--log-level must be one of DEBUG, INFO, WARNING, ERROR (got ${value})`,
    );
  return level;
}

export { EXIT };
