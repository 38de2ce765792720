import type { ParsedCommand } from './normalize.js';
import { classifyPath, type ClassifiedPath, type PathContext } from './paths.js';
import { anyMatches, type TextTester } from './patterns.js';
import { hostClasses } from './hosts.js';
import { matchesProgram, type CompiledMatch } from './rule-compile.js';

/** A command's arguments read with one rule's option spec. */
export interface ParsedOptions {
  flags: Set<string>;
  positionals: string[];
  doubleDash: boolean;
}

export function parseOptions(
  args: string[],
  valueOptions: Map<string, string[] | null>,
  style: 'gnu' | 'single-dash',
): ParsedOptions {
  const flags = new Set<string>();
  const positionals: string[] = [];
  let doubleDash = false;
  const takesNext = (option: string, next: string | undefined): boolean => {
    if (!valueOptions.has(option)) return false;
    const allowed = valueOptions.get(option);
    return allowed === null || allowed === undefined || (next !== undefined && allowed.includes(next));
  };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (doubleDash || !arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      doubleDash = true;
      continue;
    }
    if (arg.startsWith('--') || style === 'single-dash') {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      flags.add(name);
      if (eq < 0 && takesNext(name, args[i + 1])) i += 1;
      continue;
    }
    for (let k = 1; k < arg.length; k += 1) {
      const flag = `-${arg[k]}`;
      flags.add(flag);
      if (valueOptions.has(flag)) {
        if (k === arg.length - 1 && takesNext(flag, args[i + 1])) i += 1;
        break;
      }
    }
  }
  return { flags, positionals, doubleDash };
}

export interface CommandMatch {
  subject: string;
  paths: ClassifiedPath[];
}

const WRITE_OPS = /^(\d*>>?\|?|&>>?|\d*>&|\d*<>)$/;
/** Redirect targets that are not files: fd duplications (`2>&1`) and the harmless character devices. */
const NOT_A_FILE = /^(&?-?\d*-?|\/dev\/(null|stdout|stderr|stdin|tty|zero|full|fd\/\d+))$/;

/**
 * What rules read off one command during one assessment, worked out once instead of once per
 * rule: its paths' classifications (every rule sees the same cwd and env), its arguments read with
 * a given option spec, its lower-cased arguments. Lives only as long as the assessment.
 */
export interface CommandScratch {
  paths?: Map<string, ClassifiedPath>;
  options?: Map<string, ParsedOptions>;
  args?: string[];
  argvText?: string;
  lowerArgs?: Set<string>;
  /** Redirect targets that are files: read from, and written to. */
  inputs?: string[];
  writes?: string[];
}

export function commandScratch(): CommandScratch {
  return {};
}

/**
 * Whether a command satisfies every per-command condition of a rule. Runs for every candidate
 * rule of every command, so the checks are plain loops over the compiled rule (no closures or
 * arrays made per call); what a command yields to every rule alike lives in the scratch.
 */
export function matchCommand(
  m: CompiledMatch,
  cmd: ParsedCommand,
  pathContext: Omit<PathContext, 'cwd' | 'env'>,
  scratch: CommandScratch = commandScratch(),
): CommandMatch | null {
  const s = m.spec;
  const program = cmd.argv[0] ?? '';
  if (m.commandMatcher && !matchesProgram(m.commandMatcher, program)) return null;
  if (m.commandNoneMatcher && matchesProgram(m.commandNoneMatcher, program)) return null;
  if (s.via && !someStartsWith(cmd.via, s.via)) return null;
  if (s.via_other_than && !someStartsWithNone(cmd.via, s.via_other_than)) return null;
  if (
    s.cwd_targets &&
    (cmd.cwd === null || !someIncluded(classifyIn(scratch, cmd, pathContext, cmd.cwd).classes, s.cwd_targets))
  )
    return null;
  if (s.input_from && !someIncluded(s.input_from, cmd.inputFrom)) return null;
  if (s.args_from_stdin !== undefined && s.args_from_stdin !== cmd.argsFromStdin) return null;
  const args = (scratch.args ??= cmd.argv.slice(1));
  if (m.argvRegex.length > 0 && !anyMatches(m.argvRegex, (scratch.argvText ??= cmd.argv.join(' ')))) return null;
  if (m.argsRegex.length > 0 && !someArgMatches(args, m.argsRegex)) return null;
  if (s.url_hosts && !someArgPointsAt(args, s.url_hosts)) return null;
  // Most commands write no file: rules about written files stop here, before reading options.
  if (s.redirect_targets && writtenFiles(cmd, scratch).length === 0) return null;
  if (m.subcommand) {
    // A subcommand's first word is one of the arguments: rules for other subcommands stop here.
    const lowerArgs = (scratch.lowerArgs ??= new Set(args.map((a) => a.toLowerCase())));
    if (!someFirstWordIn(m.subcommand, lowerArgs)) return null;
  }
  const optionsByKey = (scratch.options ??= new Map());
  let options = optionsByKey.get(m.optionsKey);
  if (options === undefined) {
    options = parseOptions(args, m.valueOptions, s.option_style ?? 'gnu');
    optionsByKey.set(m.optionsKey, options);
  }
  let operands = options.positionals;
  if (m.subcommand) {
    const hit = subcommandOf(m.subcommand, operands);
    if (!hit) return null;
    operands = operands.slice(hit.length);
  }
  for (const group of m.flagsAll) if (!someIn(options.flags, group)) return null;
  if (s.flags_any && !someIn(options.flags, s.flags_any)) return null;
  if (s.flags_none && someIn(options.flags, s.flags_none)) return null;
  if (s.double_dash !== undefined && s.double_dash !== options.doubleDash) return null;
  if (s.positionals_min !== undefined && operands.length < s.positionals_min) return null;
  if (s.positionals_max !== undefined && operands.length > s.positionals_max) return null;
  if (!s.targets && !s.targets_none && !s.redirect_targets) return { subject: subjectOf(cmd), paths: [] };
  const paths = pathConditions(m, cmd, operands, pathContext, scratch);
  return paths === null ? null : { subject: subjectOf(cmd), paths };
}

/** The `targets`, `targets_none` and `redirect_targets` conditions: the paths that met them, or null. */
function pathConditions(
  m: CompiledMatch,
  cmd: ParsedCommand,
  operands: string[],
  pathContext: Omit<PathContext, 'cwd' | 'env'>,
  scratch: CommandScratch,
): ClassifiedPath[] | null {
  const s = m.spec;
  let paths: ClassifiedPath[] | null = null;
  if (s.targets || s.targets_none) {
    const from = s.target_operands === 'last' ? Math.max(operands.length - 1, 0) : 0;
    const to = s.target_operands === 'all-but-last' ? Math.max(operands.length - 1, 0) : operands.length;
    const inputs = (scratch.inputs ??= cmd.redirects
      .filter((r) => !WRITE_OPS.test(r.op) && !NOT_A_FILE.test(r.target))
      .map((r) => r.target));
    if (s.targets) {
      for (let i = from; i < to; i += 1)
        paths = keepIf(paths, classifyIn(scratch, cmd, pathContext, operands[i] as string), s.targets);
      for (const input of inputs) paths = keepIf(paths, classifyIn(scratch, cmd, pathContext, input), s.targets);
      if (paths === null) return null;
    }
    if (s.targets_none) {
      for (let i = from; i < to; i += 1)
        if (someIncluded(classifyIn(scratch, cmd, pathContext, operands[i] as string).classes, s.targets_none))
          return null;
      for (const input of inputs)
        if (someIncluded(classifyIn(scratch, cmd, pathContext, input).classes, s.targets_none)) return null;
    }
  }
  if (s.redirect_targets) {
    const writes = writtenFiles(cmd, scratch);
    const before = paths?.length ?? 0;
    for (const target of writes)
      paths = keepIf(paths, classifyIn(scratch, cmd, pathContext, target), s.redirect_targets);
    if ((paths?.length ?? 0) === before) return null;
  }
  return paths ?? [];
}

/** `paths` with `p` added when it has one of `classes`. */
function keepIf(paths: ClassifiedPath[] | null, p: ClassifiedPath, classes: string[]): ClassifiedPath[] | null {
  if (!someIncluded(p.classes, classes)) return paths;
  if (paths === null) return [p];
  paths.push(p);
  return paths;
}

/** A path's classification, worked out once per command (every rule sees the same cwd and env). */
function classifyIn(
  scratch: CommandScratch,
  cmd: ParsedCommand,
  pathContext: Omit<PathContext, 'cwd' | 'env'>,
  raw: string,
): ClassifiedPath {
  const known = (scratch.paths ??= new Map());
  let found = known.get(raw);
  if (found === undefined) {
    found = classifyPath(raw, { ...pathContext, cwd: cmd.cwd, env: cmd.env });
    known.set(raw, found);
  }
  return found;
}

function writtenFiles(cmd: ParsedCommand, scratch: CommandScratch): string[] {
  return (scratch.writes ??= cmd.redirects
    .filter((r) => WRITE_OPS.test(r.op) && !NOT_A_FILE.test(r.target))
    .map((r) => r.target));
}

function subjectOf(cmd: ParsedCommand): string {
  return cmd.argv.join(' ') || cmd.redirects.map((r) => `${r.op}${r.target}`).join(' ');
}

/** The subcommand (its words, lower-cased) the operands start with, if any. */
function subcommandOf(subcommands: string[][], operands: string[]): string[] | undefined {
  search: for (const words of subcommands) {
    for (let i = 0; i < words.length; i += 1) if (operands[i]?.toLowerCase() !== words[i]) continue search;
    return words;
  }
  return undefined;
}

function someFirstWordIn(subcommands: string[][], words: Set<string>): boolean {
  for (const subcommand of subcommands) if (words.has(subcommand[0] ?? '')) return true;
  return false;
}

/** Whether some argument (or an `--opt=value` value) is a URL or host of one of `classes`. */
function someArgPointsAt(args: string[], classes: string[]): boolean {
  for (const arg of args) {
    const value = arg.startsWith('-') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (someIncluded(hostClasses(value), classes)) return true;
  }
  return false;
}

function someArgMatches(args: string[], patterns: readonly TextTester[]): boolean {
  for (const arg of args) if (anyMatches(patterns, arg)) return true;
  return false;
}

function someIn(set: Set<string>, items: string[]): boolean {
  for (const item of items) if (set.has(item)) return true;
  return false;
}

function someIncluded(items: string[], list: string[]): boolean {
  for (const item of items) if (list.includes(item)) return true;
  return false;
}

/** Whether some word starts with none of the prefixes. */
function someStartsWithNone(words: string[], prefixes: string[]): boolean {
  search: for (const word of words) {
    for (const prefix of prefixes) if (word.startsWith(prefix)) continue search;
    return true;
  }
  return false;
}

/** Whether some word starts with one of the prefixes. */
function someStartsWith(words: string[], prefixes: string[]): boolean {
  for (const prefix of prefixes) for (const word of words) if (word.startsWith(prefix)) return true;
  return false;
}
