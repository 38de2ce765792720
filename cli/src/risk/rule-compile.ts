/**
 * Rule specs → compiled rules, with nothing but Node built-ins: the part of rule loading the gate
 * needs on every call. Reading and validating the YAML files (yaml + ajv, most of a cold start)
 * is rules.ts's; the gate's rule cache (rule-cache.ts) keeps the validated specs, so a call only
 * compiles them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CanonicalTool, RiskAction } from '@agentgov/core';
import { AgentgovError } from '@agentgov/core/errors';
import { escapeRegExp, GlobError, globRegExp, globsRegExp } from '@agentgov/core/glob';
import { joinPatterns, NeedledPattern, type TextTester } from './patterns.js';
import { RULE_MATCH_SCHEMA, type RiskRuleSpec, type RuleFileSpec, type RuleMatchSpec } from './rule-schema.js';

/** A rule ready to match: regular expressions compiled, lists normalised. */
export interface CompiledRule {
  id: string;
  title: string;
  reasonCode: string;
  score: number;
  action: RiskAction | undefined;
  tools: CanonicalTool[];
  /** Where the rule came from (file path or `plugin:<source>`). */
  origin: string;
  match: CompiledMatch;
}

/** A list of program globs, compiled: literal names in a Set, the wildcard ones in one matcher. */
export interface ProgramMatcher {
  names: Set<string>;
  glob: TextTester | null;
}

export function matchesProgram(matcher: ProgramMatcher, program: string): boolean {
  return matcher.names.has(program) || (matcher.glob !== null && matcher.glob.test(program));
}

function programMatcher(globs: string[]): ProgramMatcher {
  const names = new Set<string>();
  const wild: string[] = [];
  for (const glob of globs) {
    if (isProgramGlob(glob)) wild.push(glob.toLowerCase());
    else names.add(glob.toLowerCase());
  }
  if (wild.length === 0) return { names, glob: null };
  const needles = wild.map(globNeedle);
  const re = globsRegExp(wild, PROGRAM_GLOB);
  const glob = needles.every((needle) => needle !== undefined)
    ? new NeedledPattern(re.source, re.flags, needles, re)
    : re;
  return { names, glob };
}

/**
 * The longest literal part of a program glob made only of name characters, `*` and `?` (`python*` → `python`): every
 * name it matches holds it. Undefined for any other glob (classes, braces, escapes, extglobs, `/`), so nothing that
 * picomatch reads otherwise than literally can make a needle.
 */
function globNeedle(glob: string): string | undefined {
  if (!/^[a-z0-9._$+-]*$/.test(glob.replace(/[*?]/g, ''))) return undefined;
  const longest = glob.split(/[*?]+/).reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest === '' ? undefined : longest;
}

export interface CompiledMatch {
  spec: RuleMatchSpec;
  command: RegExp[] | undefined;
  commandNone: RegExp[];
  /** `command` and `command_none` compiled for one lookup per program. */
  commandMatcher: ProgramMatcher | undefined;
  /** Undefined when the rule has no `command_none` (most rules). */
  commandNoneMatcher: ProgramMatcher | undefined;
  subcommand: string[][] | undefined;
  valueOptions: Map<string, string[] | null>;
  /** Same key, same reading of a command's arguments (option style + value options). */
  optionsKey: string;
  flagsAll: string[][];
  /** Regex lists are asked only "does any match", so each is joined (see joinPatterns). */
  argsRegex: TextTester[];
  argvRegex: TextTester[];
  code: TextTester[];
  text: TextTester[];
  pathRegex: TextTester[];
  /** Whether the rule looks at individual commands (as opposed to only text/code). */
  perCommand: boolean;
  /** Whether the rule has `redirect_targets` (read without building the uniform spec). */
  redirects: boolean;
}

export interface RuleSet {
  rules: CompiledRule[];
  classPatterns: Map<string, TextTester[]>;
  files: string[];
  /** The validated specs the set was compiled from, in order (what the gate's rule cache keeps). */
  sources: RuleSourceSpec[];
  /** The needles of the specs' regular expressions (needles.ts), keyed by the expression as written. */
  needles: ReadonlyMap<string, readonly string[]>;
}

/**
 * One validated rule source: a rules file (with the SHA-256 of the bytes that were parsed) or a plugin's rule objects.
 */
export interface RuleSourceSpec {
  origin: string;
  /** Set for a file: its absolute path and content hash. */
  file?: string;
  sha256?: string;
  spec: RuleFileSpec;
}

/** The shipped rule files, in the CLI package's `rules/` directory. */
export function defaultRulesDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../rules');
}

export const DEFAULT_RULE_FILES = [
  'destructive.yaml',
  'git.yaml',
  'system.yaml',
  'secrets.yaml',
  'network.yaml',
  'files.yaml',
  'execution.yaml',
  'governance.yaml',
  'control-planes.yaml',
];

/** Every regular expression of the specs as written (`(?i)` and all), each once, in the order the specs hold them. */
export function ruleRegexSources(specs: readonly RuleFileSpec[]): string[] {
  const sources = new Set<string>();
  for (const spec of specs) {
    for (const patterns of Object.values(spec.path_classes ?? {})) for (const p of patterns) sources.add(p);
    for (const rule of spec.rules ?? []) {
      const m = rule.match;
      for (const list of [m.args_regex, m.argv_regex, m.code, m.text, m.path_regex])
        for (const p of list ?? []) sources.add(p);
    }
  }
  return [...sources];
}

/** Needles as the gate cache keeps them: a list in `ruleRegexSources` order, null where an expression has none. */
export function needleList(
  sources: readonly RuleSourceSpec[],
  needles: ReadonlyMap<string, readonly string[]>,
): Array<string[] | null> {
  return ruleRegexSources(sources.map((s) => s.spec)).map((source) => {
    const found = needles.get(source);
    return found ? [...found] : null;
  });
}

/** The needles of a `needleList` back by expression; a list of another length (not these specs') gives none. */
export function needlesFromList(
  sources: readonly RuleSourceSpec[],
  list: ReadonlyArray<readonly string[] | null>,
): Map<string, readonly string[]> {
  const expressions = ruleRegexSources(sources.map((s) => s.spec));
  const needles = new Map<string, readonly string[]>();
  if (expressions.length !== list.length) return needles;
  expressions.forEach((source, i) => {
    const found = list[i];
    if (found) needles.set(source, found);
  });
  return needles;
}

/**
 * Compiles validated specs, in order, into a rule set (a rule id defined twice is an error). With `needles`
 * (needles.ts, as the gate cache keeps them), an expression is run only on texts that hold one of its needles.
 */
export function ruleSetFromSpecs(
  sources: RuleSourceSpec[],
  needles: ReadonlyMap<string, readonly string[]> = new Map(),
): RuleSet {
  const set: RuleSet = { rules: [], classPatterns: new Map(), files: [], sources: [], needles };
  const seen = new Map<string, string>();
  for (const source of sources) {
    addFile(set, source.spec, source.origin, seen);
    if (source.file) set.files.push(source.file);
    set.sources.push(source);
  }
  return set;
}

function addFile(set: RuleSet, spec: RuleFileSpec, origin: string, seen: Map<string, string>): void {
  for (const [name, patterns] of Object.entries(spec.path_classes ?? {})) {
    const list = set.classPatterns.get(name) ?? [];
    list.push(...patterns.map((p) => rulePattern(p, set.needles)));
    set.classPatterns.set(name, list);
  }
  for (const rule of spec.rules ?? []) {
    const earlier = seen.get(rule.id);
    if (earlier !== undefined) {
      throw new AgentgovError(
        'E_CONFIG_INVALID',
        `risk rule '${rule.id}' in ${origin} is already defined in ${earlier}`,
        { rule: rule.id, origins: [earlier, origin] },
      );
    }
    seen.set(rule.id, origin);
    set.rules.push(compileRule(rule, origin, set.needles));
  }
}

export function compileRule(
  rule: RiskRuleSpec,
  origin: string,
  needles: ReadonlyMap<string, readonly string[]> = new Map(),
): CompiledRule {
  return {
    id: rule.id,
    title: rule.title ?? rule.id,
    reasonCode: rule.reason_code,
    score: rule.score,
    action: rule.action,
    tools: rule.tools ?? ['shell'],
    origin,
    match: new LazyMatch(rule.match, needles),
  };
}

const PER_COMMAND_KEYS: Array<keyof RuleMatchSpec> = [
  'command',
  'command_none',
  'subcommand',
  'via',
  'via_other_than',
  'cwd_targets',
  'flags_all',
  'flags_any',
  'flags_none',
  'double_dash',
  'positionals_min',
  'positionals_max',
  'targets',
  'targets_none',
  'target_operands',
  'args_regex',
  'argv_regex',
  'redirect_targets',
  'input_from',
  'args_from_stdin',
  'url_hosts',
];

/**
 * A rule's match, compiled as it is first asked for: what the shell rule index sorts rules by
 * (program names, subcommands, whether the rule looks at commands) at once, the rest — regular
 * expressions, option tables, the uniform spec — on the first read of each. A gate call without
 * `watch` compiles every rule and uses a handful, so it pays only for those (bench/gate). The
 * specs were validated when they were read (every regex compiles), so a late compile cannot fail.
 */
class LazyMatch implements CompiledMatch {
  readonly commandMatcher: ProgramMatcher | undefined;
  readonly subcommand: string[][] | undefined;
  readonly perCommand: boolean;
  readonly redirects: boolean;
  #spec: RuleMatchSpec | undefined;
  #command: RegExp[] | undefined;
  #commandNone: RegExp[] | undefined;
  #commandNoneMatcher: ProgramMatcher | null | undefined;
  #valueOptions: Map<string, string[] | null> | undefined;
  #optionsKey: string | undefined;
  #flagsAll: string[][] | undefined;
  #argsRegex: TextTester[] | undefined;
  #argvRegex: TextTester[] | undefined;
  #code: TextTester[] | undefined;
  #text: TextTester[] | undefined;
  #pathRegex: TextTester[] | undefined;

  constructor(
    private readonly m: RuleMatchSpec,
    private readonly needles: ReadonlyMap<string, readonly string[]>,
  ) {
    this.commandMatcher = m.command === undefined ? undefined : programMatcher(list(m.command));
    this.subcommand =
      m.subcommand === undefined ? undefined : list(m.subcommand).map((s) => s.toLowerCase().split(/\s+/));
    this.perCommand = PER_COMMAND_KEYS.some((k) => m[k] !== undefined);
    this.redirects = m.redirect_targets !== undefined;
  }

  get spec(): RuleMatchSpec {
    return (this.#spec ??= uniformSpec(this.m));
  }
  get command(): RegExp[] | undefined {
    if (this.m.command === undefined) return undefined;
    return (this.#command ??= list(this.m.command).map(globToRegex));
  }
  get commandNone(): RegExp[] {
    return (this.#commandNone ??= (this.m.command_none ?? []).map(globToRegex));
  }
  get commandNoneMatcher(): ProgramMatcher | undefined {
    if (this.#commandNoneMatcher === undefined)
      this.#commandNoneMatcher =
        this.m.command_none && this.m.command_none.length > 0 ? programMatcher(this.m.command_none) : null;
    return this.#commandNoneMatcher ?? undefined;
  }
  get valueOptions(): Map<string, string[] | null> {
    if (this.#valueOptions === undefined) {
      this.#valueOptions = new Map();
      for (const option of this.m.value_options ?? []) {
        const eq = option.indexOf('=');
        if (eq > 0) this.#valueOptions.set(option.slice(0, eq), option.slice(eq + 1).split('|'));
        else this.#valueOptions.set(option, null);
      }
    }
    return this.#valueOptions;
  }
  get optionsKey(): string {
    return (this.#optionsKey ??= JSON.stringify([this.m.option_style ?? 'gnu', [...this.valueOptions]]));
  }
  get flagsAll(): string[][] {
    return (this.#flagsAll ??= (this.m.flags_all ?? []).map(list));
  }
  get argsRegex(): TextTester[] {
    return (this.#argsRegex ??= this.#compiled(this.m.args_regex));
  }
  get argvRegex(): TextTester[] {
    return (this.#argvRegex ??= this.#compiled(this.m.argv_regex));
  }
  get code(): TextTester[] {
    return (this.#code ??= this.#compiled(this.m.code));
  }
  get text(): TextTester[] {
    return (this.#text ??= this.#compiled(this.m.text));
  }
  get pathRegex(): TextTester[] {
    return (this.#pathRegex ??= this.#compiled(this.m.path_regex));
  }
  #compiled(sources: string[] | undefined): TextTester[] {
    return joinPatterns((sources ?? []).map((source) => rulePattern(source, this.needles)));
  }
}

/** Every key a rule's `match` can have (the schema allows no others), in the schema's order. */
const MATCH_KEYS = Object.keys(RULE_MATCH_SCHEMA.properties) as Array<keyof RuleMatchSpec>;

/**
 * The spec with every key present, in one order (absent ones undefined): the specs of all rules
 * then share one object shape, and the matcher's many reads of them stay monomorphic instead of
 * going through V8's slow lookups for objects of dozens of shapes.
 */
function uniformSpec(m: RuleMatchSpec): RuleMatchSpec {
  const spec: Record<string, unknown> = {};
  for (const key of MATCH_KEYS) spec[key] = m[key];
  return spec as RuleMatchSpec;
}

function list(value: string | string[]): string[] {
  return Array.isArray(value) ? value : [value];
}

/**
 * Program names in the one glob dialect (docs/config.md), lower-cased like the program they are
 * matched against; `*` crosses `/` (`$*` covers `$HOME/bin/tool`).
 */
const PROGRAM_GLOB = { crossSlash: true };

/** A name with `*` or `?` is a glob; any other is the literal program name (`[` and `[[` are shell builtins). */
const isProgramGlob = (name: string): boolean => /[*?]/.test(name);

function globToRegex(glob: string): RegExp {
  if (!isProgramGlob(glob)) return new RegExp(`^${escapeRegExp(glob.toLowerCase())}$`);
  return globRegExp(glob.toLowerCase(), PROGRAM_GLOB);
}

/** Why a program glob cannot be compiled, or undefined (the rule schema's `program-glob` format). */
export function programGlobProblem(glob: string): string | undefined {
  try {
    globToRegex(glob);
    return undefined;
  } catch (error) {
    return error instanceof GlobError ? error.reason : (error as Error).message;
  }
}

/** Compiles a rule regex; a leading `(?i)` (as in PCRE) makes it case-insensitive. */
export function toRegex(source: string): RegExp {
  return source.startsWith('(?i)') ? new RegExp(source.slice(4), 'i') : new RegExp(source);
}

/**
 * A rule regex to match with: with needles (see patterns.ts), one compiled only when a text holds one of them; without,
 * the compiled expression.
 */
export function rulePattern(source: string, needles?: ReadonlyMap<string, readonly string[]>): TextTester {
  const found = needles?.get(source);
  if (found === undefined || found.length === 0) return toRegex(source);
  const insensitive = source.startsWith('(?i)');
  return new NeedledPattern(insensitive ? source.slice(4) : source, insensitive ? 'i' : '', found);
}
