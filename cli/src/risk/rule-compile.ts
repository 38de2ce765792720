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
import { joinPatterns } from './patterns.js';
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

/** A list of program globs, compiled: literal names in a Set, the wildcard ones in one regex. */
export interface ProgramMatcher {
  names: Set<string>;
  glob: RegExp | null;
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
  return { names, glob: wild.length > 0 ? globsRegExp(wild, PROGRAM_GLOB) : null };
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
  argsRegex: RegExp[];
  argvRegex: RegExp[];
  code: RegExp[];
  text: RegExp[];
  pathRegex: RegExp[];
  /** Whether the rule looks at individual commands (as opposed to only text/code). */
  perCommand: boolean;
}

export interface RuleSet {
  rules: CompiledRule[];
  classPatterns: Map<string, RegExp[]>;
  files: string[];
  /** The validated specs the set was compiled from, in order (what the gate's rule cache keeps). */
  sources: RuleSourceSpec[];
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

/** Compiles validated specs, in order, into a rule set (a rule id defined twice is an error). */
export function ruleSetFromSpecs(sources: RuleSourceSpec[]): RuleSet {
  const set: RuleSet = { rules: [], classPatterns: new Map(), files: [], sources: [] };
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
    list.push(...patterns.map((p) => toRegex(p)));
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
    set.rules.push(compileRule(rule, origin));
  }
}

export function compileRule(rule: RiskRuleSpec, origin: string): CompiledRule {
  return {
    id: rule.id,
    title: rule.title ?? rule.id,
    reasonCode: rule.reason_code,
    score: rule.score,
    action: rule.action,
    tools: rule.tools ?? ['shell'],
    origin,
    match: new LazyMatch(rule.match),
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
  #spec: RuleMatchSpec | undefined;
  #command: RegExp[] | undefined;
  #commandNone: RegExp[] | undefined;
  #commandNoneMatcher: ProgramMatcher | null | undefined;
  #valueOptions: Map<string, string[] | null> | undefined;
  #optionsKey: string | undefined;
  #flagsAll: string[][] | undefined;
  #argsRegex: RegExp[] | undefined;
  #argvRegex: RegExp[] | undefined;
  #code: RegExp[] | undefined;
  #text: RegExp[] | undefined;
  #pathRegex: RegExp[] | undefined;

  constructor(private readonly m: RuleMatchSpec) {
    this.commandMatcher = m.command === undefined ? undefined : programMatcher(list(m.command));
    this.subcommand =
      m.subcommand === undefined ? undefined : list(m.subcommand).map((s) => s.toLowerCase().split(/\s+/));
    this.perCommand = PER_COMMAND_KEYS.some((k) => m[k] !== undefined);
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
  get argsRegex(): RegExp[] {
    return (this.#argsRegex ??= joinPatterns((this.m.args_regex ?? []).map(toRegex)));
  }
  get argvRegex(): RegExp[] {
    return (this.#argvRegex ??= joinPatterns((this.m.argv_regex ?? []).map(toRegex)));
  }
  get code(): RegExp[] {
    return (this.#code ??= joinPatterns((this.m.code ?? []).map(toRegex)));
  }
  get text(): RegExp[] {
    return (this.#text ??= joinPatterns((this.m.text ?? []).map(toRegex)));
  }
  get pathRegex(): RegExp[] {
    return (this.#pathRegex ??= joinPatterns((this.m.path_regex ?? []).map(toRegex)));
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
