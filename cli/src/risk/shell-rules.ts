import { commandScratch, matchCommand, type CommandScratch } from './match.js';
import { anyMatches, joinPatterns, type TextTester } from './patterns.js';
import type { Normalized, ParsedCommand } from './normalize.js';
import { classifyPath, type ClassifiedPath, type PathContext } from './paths.js';
import type { CompiledMatch, CompiledRule } from './rule-compile.js';

export interface Hit {
  rule: CompiledRule;
  subject: string;
  paths: ClassifiedPath[];
  via: string[];
}

/**
 * Rules sorted by what a command must have for them to match, beyond the program: a subcommand
 * word among its arguments (indexed by that word, lower-cased), or a redirection (rules about
 * written files). The rest are tried on every command the bucket applies to.
 */
class Bucket {
  readonly plain: number[] = [];
  readonly redirecting: number[] = [];
  readonly bySubcommand = new Map<string, number[]>();

  add(index: number, m: CompiledMatch): void {
    if (m.subcommand) {
      for (const word of new Set(m.subcommand.map((words) => words[0] ?? ''))) {
        const list = this.bySubcommand.get(word) ?? [];
        list.push(index);
        this.bySubcommand.set(word, list);
      }
    } else if (m.redirects) this.redirecting.push(index);
    else this.plain.push(index);
  }
}

/**
 * The shell rules, indexed once so that an assessment tries on each command only the rules that
 * can match it: those naming its program, the wildcard-named ones whose glob fits it, and those
 * naming no program — and of these only the ones whose subcommand is among its arguments and,
 * for rules about written files, only if it has a redirection (matchCommand would turn the others
 * down). A rule hits with the first command (in order) it matches; rules that look only at the
 * text or the inline code hit on those. Hits come back in rule order.
 */
export class ShellRuleIndex {
  private readonly byProgram = new Map<string, Bucket>();
  private readonly globRules: number[] = [];
  /** Every glob rule's program pattern joined: most programs match none, and one run says so. */
  private readonly anyGlob: TextTester[];
  private readonly anyProgram = new Bucket();
  private readonly textOrCodeRules: number[] = [];
  /** The `text` patterns of the text-or-code rules joined: most texts match none. */
  private readonly anyText: TextTester[];

  constructor(private readonly rules: CompiledRule[]) {
    for (const [index, rule] of rules.entries()) {
      const m = rule.match;
      if (!m.perCommand) {
        this.textOrCodeRules.push(index);
        continue;
      }
      if (m.commandMatcher === undefined) this.anyProgram.add(index, m);
      else if (m.commandMatcher.glob) this.globRules.push(index);
      for (const program of m.commandMatcher?.names ?? []) {
        let bucket = this.byProgram.get(program);
        if (bucket === undefined) {
          bucket = new Bucket();
          this.byProgram.set(program, bucket);
        }
        bucket.add(index, m);
      }
    }
    this.anyGlob = joinPatterns(this.globRules.flatMap((index) => this.rules[index]?.match.commandMatcher?.glob ?? []));
    this.anyText = joinPatterns(this.textOrCodeRules.flatMap((index) => this.rules[index]?.match.text ?? []));
  }

  hits(normalized: Normalized, pathContext: Omit<PathContext, 'cwd' | 'env'>): Hit[] {
    const state: MatchState = {
      normalized,
      pathContext,
      found: new Map(),
      gates: undefined,
      cmd: undefined,
      scratch: undefined,
    };
    const someText = normalized.scripts.some((script) => anyMatches(this.anyText, script));
    for (const index of this.textOrCodeRules) {
      const rule = this.rules[index] as CompiledRule;
      if (rule.match.text.length > 0 && !someText) continue;
      if (
        (rule.match.code.length > 0 || rule.match.spec.code_paths || rule.match.spec.code_hosts) &&
        normalized.code.length === 0
      )
        continue;
      const seen = textAndCode(rule.match, normalized, pathContext);
      if (seen?.subject !== undefined)
        state.found.set(index, { rule, subject: clip(seen.subject), paths: seen.paths ?? [], via: seen.via });
    }
    for (const cmd of normalized.commands) {
      state.cmd = cmd;
      state.scratch = undefined;
      const program = cmd.argv[0] ?? '';
      const bucket = this.byProgram.get(program);
      if (bucket) this.tryBucket(bucket, state);
      this.tryBucket(this.anyProgram, state);
      if (anyMatches(this.anyGlob, program))
        for (const index of this.globRules)
          if (this.rules[index]?.match.commandMatcher?.glob?.test(program)) this.tryRule(index, state);
    }
    // In rule order; hits are few, so an insertion sort of their indexes.
    const indexes = [...state.found.keys()];
    for (let i = 1; i < indexes.length; i += 1) {
      const index = indexes[i] as number;
      let j = i - 1;
      for (; j >= 0 && (indexes[j] as number) > index; j -= 1) indexes[j + 1] = indexes[j] as number;
      indexes[j + 1] = index;
    }
    return indexes.map((index) => state.found.get(index) as Hit);
  }

  private tryBucket(bucket: Bucket, state: MatchState): void {
    const cmd = state.cmd as ParsedCommand;
    for (const index of bucket.plain) this.tryRule(index, state);
    if (cmd.redirects.length > 0) for (const index of bucket.redirecting) this.tryRule(index, state);
    if (bucket.bySubcommand.size > 0 && cmd.argv.length > 1) {
      // The same set matchCommand checks a subcommand's first word against.
      const scratch = (state.scratch ??= commandScratch());
      const args = (scratch.args ??= cmd.argv.slice(1));
      const lowerArgs = (scratch.lowerArgs ??= new Set(args.map((a) => a.toLowerCase())));
      for (const word of lowerArgs)
        for (const index of bucket.bySubcommand.get(word) ?? NONE) this.tryRule(index, state);
    }
  }

  /** Tries one rule on the state's command, unless it already hit with an earlier one. */
  private tryRule(index: number, state: MatchState): void {
    if (state.found.has(index)) return;
    const rule = this.rules[index] as CompiledRule;
    const m = rule.match;
    if (m.text.length > 0 || m.code.length > 0 || m.spec.code_paths || m.spec.code_hosts) {
      // A per-command rule with `text` or `code` conditions needs them met somewhere first.
      const gates = (state.gates ??= new Map());
      let open = gates.get(index);
      if (open === undefined) {
        open = textAndCode(m, state.normalized, state.pathContext) !== null;
        gates.set(index, open);
      }
      if (!open) return;
    }
    const cmd = state.cmd as ParsedCommand;
    const match = matchCommand(m, cmd, state.pathContext, (state.scratch ??= commandScratch()));
    if (match) state.found.set(index, { rule, subject: clip(match.subject), paths: match.paths, via: cmd.via });
  }
}

const NONE: number[] = [];

/** One assessment's progress: hits by rule index, and the command being tried with its scratch. */
interface MatchState {
  normalized: Normalized;
  pathContext: Omit<PathContext, 'cwd' | 'env'>;
  found: Map<number, Hit>;
  gates: Map<number, boolean> | undefined;
  cmd: ParsedCommand | undefined;
  scratch: CommandScratch | undefined;
}

/** A rule's `text` and `code` conditions: null when one fails, else the subject and wrappers they found. */
function textAndCode(
  m: CompiledMatch,
  normalized: Normalized,
  pathContext: Omit<PathContext, 'cwd' | 'env'>,
): { subject: string | undefined; via: string[]; paths?: ClassifiedPath[] } | null {
  let subject: string | undefined;
  let via: string[] = [];
  if (m.text.length > 0) {
    const script = normalized.scripts.find((s) => anyMatches(m.text, s));
    if (script === undefined) return null;
    subject = script;
  }
  const classes = m.spec.code_paths;
  const hosts = m.spec.code_hosts;
  if (m.code.length > 0 || classes || hosts) {
    let paths: ClassifiedPath[] = [];
    const inline = normalized.code.find((c) => {
      if (m.code.length > 0 && !anyMatches(m.code, c.code)) return false;
      if (hosts && !c.hosts.some((h) => hosts.includes(h))) return false;
      if (!classes) return true;
      paths = c.paths
        .map((p) => classifyPath(p, { ...pathContext, cwd: c.cwd, env: c.env }))
        .filter((p) => p.classes.some((cls) => classes.includes(cls)));
      return paths.length > 0;
    });
    if (!inline) return null;
    subject = inline.code;
    via = inline.via;
    if (classes) return { subject, via, paths };
  }
  return { subject, via };
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
