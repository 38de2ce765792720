import { commandScratch, matchCommand, type CommandScratch } from './match.js';
import type { Normalized } from './normalize.js';
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
    const found = new Map<number, Hit>();
    for (const index of this.textOrCodeRules) {
      const rule = this.rules[index] as CompiledRule;
      const seen = textAndCode(rule.match, normalized);
      if (seen?.subject !== undefined) found.set(index, { rule, subject: clip(seen.subject), paths: [], via: seen.via });
    }
    // A per-command rule with `text` or `code` conditions needs them met somewhere first.
    const gates = new Map<number, boolean>();
    const candidatesOf = new Map<string, number[]>();
    for (const cmd of normalized.commands) {
      const program = cmd.argv[0] ?? '';
      let candidates = candidatesOf.get(program);
      if (candidates === undefined) {
        candidates = this.candidates(program);
        candidatesOf.set(program, candidates);
      }
      let scratch: CommandScratch | undefined;
      for (const index of candidates) {
        if (found.has(index)) continue;
        const rule = this.rules[index] as CompiledRule;
        const m = rule.match;
        if (m.text.length > 0 || m.code.length > 0) {
          let open = gates.get(index);
          if (open === undefined) {
            open = textAndCode(m, normalized) !== null;
            gates.set(index, open);
          }
          if (!open) continue;
        }
        scratch ??= commandScratch();
        const match = matchCommand(m, cmd, pathContext, scratch);
        if (match) found.set(index, { rule, subject: clip(match.subject), paths: match.paths, via: cmd.via });
      }
    }
    return [...found.keys()].sort((a, b) => a - b).map((index) => found.get(index) as Hit);
  }

  private candidates(program: string): number[] {
    const candidates = [...(this.byProgram.get(program) ?? []), ...this.anyProgramRules];
    for (const index of this.globRules) if (this.rules[index]?.match.commandMatcher?.glob?.test(program)) candidates.push(index);
    return candidates;
  }
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
