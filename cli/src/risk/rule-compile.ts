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
    if (/[*?]/.test(glob)) wild.push(globToRegex(glob).source.slice(1, -1));
    else names.add(glob.toLowerCase());
  }
  return { names, glob: wild.length > 0 ? new RegExp(`^(?:${wild.join('|')})$`) : null };
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

/** One validated rule source: a rules file (with the SHA-256 of the bytes that were parsed) or a plugin's rule objects. */
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

export const DEFAULT_RULE_FILES = ['destructive.yaml', 'git.yaml', 'system.yaml', 'secrets.yaml', 'network.yaml', 'files.yaml', 'execution.yaml', 'governance.yaml'];

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
      throw new AgentgovError('E_CONFIG_INVALID', `risk rule '${rule.id}' in ${origin} is already defined in ${earlier}`, { rule: rule.id, origins: [earlier, origin] });
    }
    seen.set(rule.id, origin);
    set.rules.push(compileRule(rule, origin));
  }
}

export function compileRule(rule: RiskRuleSpec, origin: string): CompiledRule {
  const m = rule.match;
  const valueOptions = new Map<string, string[] | null>();
  for (const option of m.value_options ?? []) {
    const eq = option.indexOf('=');
    if (eq > 0) valueOptions.set(option.slice(0, eq), option.slice(eq + 1).split('|'));
    else valueOptions.set(option, null);
  }
  const perCommandKeys: Array<keyof RuleMatchSpec> = ['command', 'command_none', 'subcommand', 'via', 'flags_all', 'flags_any', 'flags_none', 'double_dash', 'positionals_min', 'positionals_max', 'targets', 'targets_none', 'target_operands', 'args_regex', 'argv_regex', 'redirect_targets', 'input_from', 'args_from_stdin', 'url_hosts'];
  return {
    id: rule.id,
    title: rule.title ?? rule.id,
    reasonCode: rule.reason_code,
    score: rule.score,
    action: rule.action,
    tools: rule.tools ?? ['shell'],
    origin,
    match: {
      spec: uniformSpec(m),
      command: m.command === undefined ? undefined : list(m.command).map(globToRegex),
      commandNone: (m.command_none ?? []).map(globToRegex),
      commandMatcher: m.command === undefined ? undefined : programMatcher(list(m.command)),
      commandNoneMatcher: m.command_none && m.command_none.length > 0 ? programMatcher(m.command_none) : undefined,
      subcommand: m.subcommand === undefined ? undefined : list(m.subcommand).map((s) => s.toLowerCase().split(/\s+/)),
      valueOptions,
      optionsKey: JSON.stringify([m.option_style ?? 'gnu', [...valueOptions]]),
      flagsAll: (m.flags_all ?? []).map(list),
      argsRegex: joinPatterns((m.args_regex ?? []).map(toRegex)),
      argvRegex: joinPatterns((m.argv_regex ?? []).map(toRegex)),
      code: joinPatterns((m.code ?? []).map(toRegex)),
      text: joinPatterns((m.text ?? []).map(toRegex)),
      pathRegex: joinPatterns((m.path_regex ?? []).map(toRegex)),
      perCommand: perCommandKeys.some((k) => m[k] !== undefined),
    },
  };
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

function globToRegex(glob: string): RegExp {
  const escaped = glob.toLowerCase().replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

/** Compiles a rule regex; a leading `(?i)` (as in PCRE) makes it case-insensitive. */
export function toRegex(source: string): RegExp {
  return source.startsWith('(?i)') ? new RegExp(source.slice(4), 'i') : new RegExp(source);
}
