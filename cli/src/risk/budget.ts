/** Milliseconds of a monotonic clock (process.hrtime: loading node:perf_hooks costs the gate ~2 ms a call). */
const now = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * What one assessment may spend reading a shell command. Past any limit the engine stops reading
 * (or skips the part over the limit), scores what it read, and answers at least `ask` with
 * `command_unreadable`: the part it did not read could do anything. The limits keep the cost
 * linear in the command's size and bounded in time, so no command can stall the gate.
 */
export const READ_LIMITS = {
  /** Characters of shell text read; a longer command is assessed on its first part. */
  chars: 64 * 1024,
  /** Syntax nodes copied out of tree-sitter, over every parse of one assessment (re-parses included). */
  nodes: 20_000,
  /** Simple commands after unwrapping (the parts of a list or pipeline, substitutions, re-parses). */
  commands: 2_000,
  /** Distinct programs whose output flows into one pipeline stage. */
  upstream: 64,
  /** Nesting of re-parsed shell text (`bash -c "bash -c …"`, eval, execution channels). */
  depth: 6,
  /** CPU time for reading the whole command, parses included. */
  ms: 30,
  /** Wall-clock ceiling for the same, whatever the machine's load. */
  wallMs: 500,
} as const;

export type ReadLimit = keyof typeof READ_LIMITS;

/** How many files a command runs may each get a reading budget of their own (see ReadBudget.extend). */
export const READ_FILE_EXTENSIONS = 4;

export class ReadBudget {
  /** Why the command could not be read in full (empty: it was), one line per limit met. */
  readonly incomplete: string[] = [];
  private readonly met = new Set<ReadLimit>();
  nodesLeft: number;
  private readonly cpuStart = process.cpuUsage();
  /** CPU microseconds spent on work that is not reading (see `excluding`). */
  private cpuExcluded = 0;
  private wallDeadline: number;
  /** CPU milliseconds allowed: the limit, plus one more for each file read (see `extend`). */
  private msAllowed: number;
  /** How many more times `extend` may add a budget. */
  private extensionsLeft = READ_FILE_EXTENSIONS;

  constructor(private readonly limits: { nodes: number; ms: number; wallMs: number } = READ_LIMITS) {
    this.nodesLeft = limits.nodes;
    this.wallDeadline = now() + limits.wallMs;
    this.msAllowed = limits.ms;
  }

  /**
   * A file the command runs was read (write, then run): reading it gets a budget of its own
   * (twice the CPU time, the wall clock and syntax nodes of a command; the caller adds commands),
   * for at most READ_FILE_EXTENSIONS files.
   * True when it was granted.
   */
  extend(): boolean {
    if (this.extensionsLeft <= 0 || this.met.has('ms')) return false;
    this.extensionsLeft -= 1;
    // Twice the time of a command: a file is up to 64 KiB of script, read by a cold gate process.
    this.msAllowed += 2 * this.limits.ms;
    this.wallDeadline += this.limits.wallMs;
    this.nodesLeft += this.limits.nodes;
    return true;
  }

  /** True once the time budget is spent (and noted). */
  expired(): boolean {
    if (this.met.has('ms')) return true;
    if (!this.halt()) return false;
    this.stop(
      'ms',
      `the time budget (${this.msAllowed} ms of CPU, ` +
        `${this.limits.wallMs} ms of wall clock) was spent before the whole command ` +
        `was read`,
    );
    return true;
  }

  /**
   * Whether the time is up; tree-sitter's progressCallback (true halts the parse). CPU time is
   * what the reading itself costs, whatever else the machine runs; the wall clock is the ceiling.
   */
  readonly halt = (): boolean => {
    const cpu = process.cpuUsage(this.cpuStart);
    return cpu.user + cpu.system - this.cpuExcluded > this.msAllowed * 1000 || now() > this.wallDeadline;
  };

  /** Runs `work` (loading the parser, say) without charging its time to the reading. */
  excluding<T>(work: () => T): T {
    const cpu = process.cpuUsage();
    const wall = now();
    try {
      return work();
    } finally {
      const spent = process.cpuUsage(cpu);
      this.cpuExcluded += spent.user + spent.system;
      this.wallDeadline += now() - wall;
    }
  }

  /** Notes that a limit was met, with what it left unread. */
  stop(limit: ReadLimit, reason: string): void {
    this.met.add(limit);
    if (!this.incomplete.includes(reason)) this.incomplete.push(reason);
  }

  /** Whether reading goes on: not once the clock or the command count ran out (other limits only skip a part). */
  get reading(): boolean {
    return !this.met.has('commands') && !this.expired();
  }

  get exhausted(): boolean {
    return this.met.size > 0;
  }
}
