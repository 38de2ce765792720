import { commandScratch, matchCommand, type CommandScratch } from './match.js';
import type { Normalized, ParsedCommand } from './normalize.js';
import type { ClassifiedPath, PathContext } from './paths.js';
import type { CompiledMatch, CompiledRule } from './rules.js';

export interface Hit {
  rule: CompiledRule;
  subject: string;
  paths: ClassifiedPath[];
  via: string[];
}

/**
 * The shell rules, indexed once so that an assessment tries on each command only the rules that
 * can match it: the rules naming its program, the wildcard-named ones whose glob fits it, and the
 * rules naming no program. A rule hits with the first command (in order) it matches; rules that
 * look only at the text or the inline code hit on those. Hits come back in rule order.
 */
export class ShellRuleIndex {
  private readonly byProgram = new Map<string, number[]>();
  private readonly globRules: number[] = [];
  private readonly anyProgramRules: number[] = [];
  private readonly textOrCodeRules: number[] = [];

  constructor(private readonly rules: CompiledRule[]) {
    for (const [index, rule] of rules.entries()) {
      const m = rule.match;
      if (!m.perCommand) {
        this.textOrCodeRules.push(index);
        continue;
      }
      if (m.commandMatcher === undefined) this.anyProgramRules.push(index);
      else if (m.commandMatcher.glob) this.globRules.push(index);
      for (const program of m.commandMatcher?.names ?? []) {
        const list = this.byProgram.get(program) ?? [];
        list.push(index);
        this.byProgram.set(program, list);
      }
    }
  }

  hits(normalized: Normalized, pathContext: Omit<PathContext, 'cwd' | 'env'>): Hit[] {
    const state: MatchState = { normalized, pathContext, found: new Map(), gates: undefined, cmd: undefined, scratch: undefined };
    for (const index of this.textOrCodeRules) {
      const rule = this.rules[index] as CompiledRule;
      const seen = textAndCode(rule.match, normalized);
      if (seen?.subject !== undefined) state.found.set(index, { rule, subject: clip(seen.subject), paths: [], via: seen.via });
    }
    for (const cmd of normalized.commands) {
      state.cmd = cmd;
      state.scratch = undefined;
      const program = cmd.argv[0] ?? '';
      for (const index of this.byProgram.get(program) ?? NONE) this.tryRule(index, state);
      for (const index of this.anyProgramRules) this.tryRule(index, state);
      for (const index of this.globRules) if (this.rules[index]?.match.commandMatcher?.glob?.test(program)) this.tryRule(index, state);
    }
    if (state.found.size === 0) return [];
    if (state.found.size === 1) return [...state.found.values()];
    return [...state.found.keys()].sort((a, b) => a - b).map((index) => state.found.get(index) as Hit);
  }

  /** Tries one rule on the state's command, unless it already hit with an earlier one. */
  private tryRule(index: number, state: MatchState): void {
    if (state.found.has(index)) return;
    const rule = this.rules[index] as CompiledRule;
    const m = rule.match;
    if (m.text.length > 0 || m.code.length > 0) {
      // A per-command rule with `text` or `code` conditions needs them met somewhere first.
      const gates = (state.gates ??= new Map());
      let open = gates.get(index);
      if (open === undefined) {
        open = textAndCode(m, state.normalized) !== null;
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
function textAndCode(m: CompiledMatch, normalized: Normalized): { subject: string | undefined; via: string[] } | null {
  let subject: string | undefined;
  let via: string[] = [];
  if (m.text.length > 0) {
    const script = normalized.scripts.find((s) => m.text.some((re) => re.test(s)));
    if (script === undefined) return null;
    subject = script;
  }
  if (m.code.length > 0) {
    const inline = normalized.code.find((c) => m.code.some((re) => re.test(c.code)));
    if (!inline) return null;
    subject = inline.code;
    via = inline.via;
  }
  return { subject, via };
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
