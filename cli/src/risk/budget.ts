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

/** Wall-clock milliseconds of reading after which ReadBudget asks the kernel for the CPU time spent. */
const CPU_EXACT_AFTER_MS = 2;

/** How many files a command runs may each get a reading budget of their own (see ReadBudget.extend). */
export const READ_FILE_EXTENSIONS = 4;

export class ReadBudget {
  /** Why the command could not be read in full (empty: it was), one line per limit met. */
  readonly incomplete: string[] = [];
  private readonly met = new Set<ReadLimit>();
  nodesLeft: number;
  private readonly wallStart = now();
  /**
   * The process's CPU time when it was first asked (see `cpuMsSpent`): most commands are read in
   * well under CPU_EXACT_AFTER_MS, and asking the kernel is a system call on every check.
   */
  private cpuStart: NodeJS.CpuUsage | undefined;
  /** The CPU milliseconds charged before cpuStart: the wall clock up to then, an upper bound. */
  private cpuMsBefore = 0;
  /** CPU microseconds (wall-clock milliseconds before cpuStart) spent on work that is not reading. */
  private cpuExcluded = 0;
  private wallExcluded = 0;
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
    const wall = now();
    return wall > this.wallDeadline || this.cpuMsSpent(wall) > this.msAllowed;
  };

  /**
   * CPU milliseconds the reading has spent. Until the reading has run CPU_EXACT_AFTER_MS of wall
   * clock, that wall time is the answer (this thread cannot have run longer than the clock); from
   * then on the kernel's count is added to it. The charge is never below the CPU time spent, and
   * at most CPU_EXACT_AFTER_MS above it.
   */
  private cpuMsSpent(wall: number): number {
    if (this.cpuStart === undefined) {
      const elapsed = wall - this.wallStart - this.wallExcluded;
      if (elapsed <= CPU_EXACT_AFTER_MS) return elapsed;
      this.cpuStart = process.cpuUsage();
      this.cpuMsBefore = elapsed;
    }
    const cpu = process.cpuUsage(this.cpuStart);
    return this.cpuMsBefore + (cpu.user + cpu.system - this.cpuExcluded) / 1000;
  }

  /** Runs `work` (loading the parser, say) without charging its time to the reading. */
  excluding<T>(work: () => T): T {
    const cpu = this.cpuStart === undefined ? undefined : process.cpuUsage();
    const wall = now();
    try {
      return work();
    } finally {
      const wallSpent = now() - wall;
      if (cpu === undefined) this.wallExcluded += wallSpent;
      else {
        const spent = process.cpuUsage(cpu);
        this.cpuExcluded += spent.user + spent.system;
      }
      this.wallDeadline += wallSpent;
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
