import type { ParsedCommand } from './normalize.js';
import { classifyPath, type ClassifiedPath, type PathContext } from './paths.js';
import { matchesProgram, type CompiledMatch } from './rules.js';

/** A command's arguments read with one rule's option spec. */
export interface ParsedOptions {
  flags: Set<string>;
  positionals: string[];
  doubleDash: boolean;
}

export function parseOptions(args: string[], valueOptions: Map<string, string[] | null>, style: 'gnu' | 'single-dash'): ParsedOptions {
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
  paths: Map<string, ClassifiedPath>;
  options: Map<string, ParsedOptions>;
  args?: string[];
  argvText?: string;
  lowerArgs?: Set<string>;
  /** Redirect targets that are files: read from, and written to. */
  inputs?: string[];
  writes?: string[];
}

export function commandScratch(): CommandScratch {
  return { paths: new Map(), options: new Map() };
}

/** Whether a command satisfies every per-command condition of a rule. */
export function matchCommand(m: CompiledMatch, cmd: ParsedCommand, pathContext: Omit<PathContext, 'cwd' | 'env'>, scratch: CommandScratch = commandScratch()): CommandMatch | null {
  const s = m.spec;
  const program = cmd.argv[0] ?? '';
  if (m.commandMatcher && !matchesProgram(m.commandMatcher, program)) return null;
  if (matchesProgram(m.commandNoneMatcher, program)) return null;
  if (s.via && !s.via.some((v) => cmd.via.some((w) => w.startsWith(v)))) return null;
  if (s.input_from && !s.input_from.some((name) => cmd.inputFrom.includes(name))) return null;
  if (s.args_from_stdin !== undefined && s.args_from_stdin !== cmd.argsFromStdin) return null;
  const args = (scratch.args ??= cmd.argv.slice(1));
  if (m.argvRegex.length > 0) {
    const argvText = (scratch.argvText ??= cmd.argv.join(' '));
    if (!m.argvRegex.some((re) => re.test(argvText))) return null;
  }
  if (m.argsRegex.length > 0 && !args.some((a) => m.argsRegex.some((re) => re.test(a)))) return null;
  // Most commands write no file: rules about written files stop here, before reading options.
  const writes = s.redirect_targets ? (scratch.writes ??= cmd.redirects.filter((r) => WRITE_OPS.test(r.op) && !NOT_A_FILE.test(r.target)).map((r) => r.target)) : [];
  if (s.redirect_targets && writes.length === 0) return null;

  if (m.subcommand) {
    // A subcommand's first word is one of the arguments: rules for other subcommands stop here.
    scratch.lowerArgs ??= new Set(args.map((a) => a.toLowerCase()));
    const lowerArgs = scratch.lowerArgs;
    if (!m.subcommand.some((words) => lowerArgs.has(words[0] ?? ''))) return null;
  }
  let options = scratch.options.get(m.optionsKey);
  if (options === undefined) {
    options = parseOptions(args, m.valueOptions, s.option_style ?? 'gnu');
    scratch.options.set(m.optionsKey, options);
  }
  let operands = options.positionals;
  if (m.subcommand) {
    const lower = operands.map((o) => o.toLowerCase());
    const hit = m.subcommand.find((words) => words.every((w, i) => lower[i] === w));
    if (!hit) return null;
    operands = operands.slice(hit.length);
  }
  if (m.flagsAll.some((group) => !group.some((f) => options.flags.has(f)))) return null;
  if (s.flags_any && !s.flags_any.some((f) => options.flags.has(f))) return null;
  if (s.flags_none && s.flags_none.some((f) => options.flags.has(f))) return null;
  if (s.double_dash !== undefined && s.double_dash !== options.doubleDash) return null;
  if (s.positionals_min !== undefined && operands.length < s.positionals_min) return null;
  if (s.positionals_max !== undefined && operands.length > s.positionals_max) return null;

  const subject = (): string => cmd.argv.join(' ') || cmd.redirects.map((r) => `${r.op}${r.target}`).join(' ');
  if (!s.targets && !s.targets_none && !s.redirect_targets) return { subject: subject(), paths: [] };
  let context: PathContext | undefined;
  const classify = (raw: string): ClassifiedPath => {
    let found = scratch.paths.get(raw);
    if (found === undefined) {
      context ??= { cwd: cmd.cwd, projectRoot: pathContext.projectRoot, home: pathContext.home, env: cmd.env, classPatterns: pathContext.classPatterns };
      found = classifyPath(raw, context);
      scratch.paths.set(raw, found);
    }
    return found;
  };
  const paths: ClassifiedPath[] = [];
  if (s.targets || s.targets_none) {
    const inputs = (scratch.inputs ??= cmd.redirects.filter((r) => !WRITE_OPS.test(r.op) && !NOT_A_FILE.test(r.target)).map((r) => r.target));
    const checked = s.target_operands === 'last' ? operands.slice(-1) : s.target_operands === 'all-but-last' ? operands.slice(0, -1) : operands;
    const classified = [...checked, ...inputs].map(classify);
    if (s.targets) {
      const hits = classified.filter((p) => p.classes.some((c) => s.targets?.includes(c)));
      if (hits.length === 0) return null;
      paths.push(...hits);
    }
    if (s.targets_none && classified.some((p) => p.classes.some((c) => s.targets_none?.includes(c)))) return null;
  }
  if (s.redirect_targets) {
    const hits = writes.map(classify).filter((p) => p.classes.some((c) => s.redirect_targets?.includes(c)));
    if (hits.length === 0) return null;
    paths.push(...hits);
  }
  return { subject: subject(), paths };
}
