import type { CanonicalTool, RiskAction } from '@agentgov/core';

/** One rule as written in a YAML rules file (see docs/risk.md for every key). */
export interface RiskRuleSpec {
  id: string;
  title?: string;
  description?: string;
  reason_code: string;
  score: number;
  action?: RiskAction;
  tools?: CanonicalTool[];
  match: RuleMatchSpec;
}

export interface RuleMatchSpec {
  command?: string | string[];
  command_none?: string[];
  subcommand?: string | string[];
  via?: string[];
  via_other_than?: string[];
  cwd_targets?: string[];
  option_style?: 'gnu' | 'single-dash';
  value_options?: string[];
  flags_all?: Array<string | string[]>;
  flags_any?: string[];
  flags_none?: string[];
  double_dash?: boolean;
  positionals_min?: number;
  positionals_max?: number;
  targets?: string[];
  targets_none?: string[];
  target_operands?: 'all' | 'last' | 'all-but-last';
  args_regex?: string[];
  argv_regex?: string[];
  redirect_targets?: string[];
  input_from?: string[];
  args_from_stdin?: boolean;
  code?: string[];
  text?: string[];
  paths?: string[];
  path_regex?: string[];
  url_hosts?: string[];
  code_paths?: string[];
  code_hosts?: string[];
}

export interface RuleFileSpec {
  version?: 1;
  path_classes?: Record<string, string[]>;
  rules?: RiskRuleSpec[];
}

const stringList = { type: 'array', items: { type: 'string', minLength: 1 } } as const;
const stringOrList = { oneOf: [{ type: 'string', minLength: 1 }, stringList] } as const;
/** Program globs (docs/config.md, "Globs"): checked by the `program-glob` format, so a bad one is named at load. */
const globItem = { type: 'string', minLength: 1, format: 'program-glob' } as const;
const globOrList = { oneOf: [globItem, { type: 'array', items: globItem }] } as const;
/** A regular expression (JavaScript syntax); a leading `(?i)` makes it case-insensitive. */
const regexList = { type: 'array', items: { type: 'string', minLength: 1, format: 'regex' } } as const;

export const RULE_MATCH_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    command: {
      ...globOrList,
      description:
        'Program names (basename, case-insensitive; globs as in docs/config.md, `*` also crossing `/`) ' +
        'after wrappers are peeled off.',
    },
    command_none: {
      type: 'array',
      items: globItem,
      description: 'The program is none of these (same matching as `command`).',
    },
    subcommand: {
      ...stringOrList,
      description: 'Leading positional words, space-separated (`stash drop`); any alternative matches.',
    },
    via: {
      ...stringList,
      description:
        'The command came through one of these wrappers or re-parses (`sudo`, `bash ' +
        '-c`, `xargs`, `python -c` …; prefix match).',
    },
    via_other_than: {
      ...stringList,
      description:
        'The command came through some wrapper, channel or re-parse that starts with ' +
        'none of these (prefix match): `via_other_than: [bash -c, eval]` is any way ' +
        'in but a plain re-parse.',
    },
    cwd_targets: {
      ...stringList,
      description: 'The directory the command runs in is of one of these path classes (`home`, `root`, `system` …).',
    },
    option_style: {
      enum: ['gnu', 'single-dash'],
      description: '`gnu` (default) splits `-rf` into `-r -f`; `single-dash` keeps `-delete` whole (find, dd).',
    },
    value_options: {
      ...stringList,
      description:
        'Options that take a value, so the value is not read as a flag or positional. ' +
        '`--opt=a|b` takes the next word only when it is `a` or `b`.',
    },
    flags_all: {
      type: 'array',
      items: stringOrList,
      description: 'Every entry must be present; an entry that is a list is satisfied by any of its flags.',
    },
    flags_any: { ...stringList, description: 'At least one of these flags is present.' },
    flags_none: { ...stringList, description: 'None of these flags is present.' },
    double_dash: { type: 'boolean', description: 'A `--` separator is (true) or is not (false) present.' },
    positionals_min: { type: 'integer', minimum: 0, description: 'At least this many operands after the subcommand.' },
    positionals_max: { type: 'integer', minimum: 0, description: 'At most this many operands after the subcommand.' },
    targets: { ...stringList, description: 'Some operand (or input redirect) is a path of one of these classes.' },
    target_operands: {
      enum: ['all', 'last', 'all-but-last'],
      description:
        'Which operands `targets` looks at: `last` is the destination of cp/mv/ln/install/rsync, ' +
        '`all-but-last` their sources (default: all).',
    },
    targets_none: { ...stringList, description: 'No operand is a path of these classes.' },
    args_regex: {
      ...regexList,
      description: 'Some argument (after the program name) matches one of these regular expressions.',
    },
    argv_regex: {
      ...regexList,
      description: 'The whole argv joined with spaces matches one of these regular expressions.',
    },
    redirect_targets: {
      ...stringList,
      description: 'The command writes (`>`, `>>`, `&>`) to a path of one of these classes.',
    },
    input_from: {
      ...stringList,
      description: 'Output of one of these programs flows into the command (earlier pipeline stage, `<(…)`, `$(…)`).',
    },
    args_from_stdin: {
      type: 'boolean',
      description: 'The command gets further arguments at run time (xargs, parallel without `:::`).',
    },
    code: {
      ...regexList,
      description:
        'Interpreter one-liner code (`python -c`, `node -e`, heredoc to an interpreter) matches one of these.',
    },
    code_hosts: {
      ...stringList,
      description:
        'Interpreter one-liner code names a URL (a string literal) whose host is ' +
        'of one of these classes (see Host classes).',
    },
    code_paths: {
      ...stringList,
      description:
        'Interpreter one-liner code names a file path (a string literal; under `~` ' +
        'when the code builds on the home directory) of one of these classes. With ' +
        '`code`, the same code must match both.',
    },
    text: {
      ...regexList,
      description: 'Any shell text (the command, or a string re-parsed from `bash -c`/`eval`) matches one of these.',
    },
    paths: { ...stringList, description: 'File tools: the file path is of one of these classes.' },
    path_regex: {
      ...regexList,
      description: 'File tools: the absolute file path (or its `~/` form) matches one of these.',
    },
    url_hosts: {
      ...stringList,
      description:
        'Some argument (shell), or the `url` of a fetch tool, points at a host of ' +
        'one of these classes: `metadata`, `link_local`, `loopback_admin` (see Host ' +
        'classes).',
    },
  },
} as const;

export const RISK_RULE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'reason_code', 'score', 'match'],
  properties: {
    id: {
      type: 'string',
      pattern: '^[a-z0-9][a-z0-9._-]*$',
      description: 'Unique rule id, dotted (`git.reset-hard`).',
    },
    title: { type: 'string' },
    description: { type: 'string' },
    reason_code: {
      type: 'string',
      pattern: '^[a-z][a-z0-9_]*$',
      description: 'A code from the reason-code catalog, or a new snake_case code.',
    },
    score: { type: 'integer', minimum: 0, maximum: 100 },
    action: {
      enum: ['allow', 'warn', 'ask', 'deny'],
      description: 'Overrides the action derived from the score (never below it).',
    },
    tools: {
      type: 'array',
      items: { enum: ['shell', 'read', 'write', 'edit', 'search', 'fetch', 'mcp', 'other'] },
      description: 'Tool kinds the rule applies to (default: shell).',
    },
    match: RULE_MATCH_SCHEMA,
  },
} as const;

export const RULE_FILE_SCHEMA = {
  $id: 'https://agentgov.dev/schemas/risk-rules.json',
  type: 'object',
  additionalProperties: false,
  properties: {
    version: { const: 1 },
    path_classes: {
      type: 'object',
      description: 'Named path classes: regular expressions matched against absolute paths and their `~/` form.',
      additionalProperties: regexList,
      propertyNames: { pattern: '^[a-z][a-z0-9_]*$' },
    },
    rules: { type: 'array', items: RISK_RULE_SCHEMA },
  },
} as const;
