import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  Assessment,
  LoadedConfig,
  PluginHost,
  RiskAction,
  RiskRuleSource,
  RuleHit,
  ToolCallEvent,
} from '@agentgov/core';
import { normalizeRunnable, normalizeShell, type Normalized, type ParsedCommand } from './normalize.js';
import { readRunFile, runnableContent, type FileRead } from './runnable-files.js';
import { agentgovHome } from '@agentgov/core/paths';
import { escapeRegExp } from '@agentgov/core/glob';
import { argvToShell } from '@agentgov/core/shell-quote';
import { classifyPath, projectRootOf, realTarget, resolvePath, type ClassifiedPath } from './paths.js';
import type { CompiledRule, RuleSet } from './rule-compile.js';
import { ShellRuleIndex, type Hit } from './shell-rules.js';
import { actionForScore, actionSeverity, levelForScore } from './scoring.js';
import { READ_LIMITS, ReadBudget } from './budget.js';
import { warmShellParser } from './shell-parse.js';
import { hostClasses } from './hosts.js';

export interface RiskEngine {
  /** Deterministic: same event, same answer. Never throws on any input. */
  assess(event: ToolCallEvent): Assessment;
  readonly rulesLoaded: number;
  readonly ruleFiles: string[];
}

export interface RiskEngineOptions {
  /** Extra YAML rule files (config `risk.rules`). */
  extraRuleFiles?: string[];
  /** Rule sources from the `riskRules` registry. */
  sources?: RiskRuleSource[];
  /** The home directory `~` stands for (default: the current user's). */
  home?: string;
  /**
   * agentgov's own state, in the `governance` path class besides the agents' hook settings the
   * rule files name (default: `$AGENTGOV_HOME`, `~/.agentgov` without it).
   */
  protectedPaths?: string[];
  /** Judge a path by where its symbolic links lead (default true; the filesystem is read, never written). */
  followLinks?: boolean;
  /**
   * Load and run the shell parser now (default), rather than on the first command that needs it (outside that command's
   * time budget).
   */
  warm?: boolean;
  /**
   * The time reading one command may take (default READ_LIMITS: 30 ms of CPU, 500 ms of wall
   * clock). Tests that check what a command *is*, not how the budget trips, raise it, so that a
   * loaded machine cannot turn their benign commands into `command_unreadable`.
   */
  readTime?: { ms: number; wallMs: number };
  /**
   * Reads the files a command runs (scripts by path, package.json for `npm test`, a Makefile for
   * `make` …) to judge them by their content (default: readRunFile, the first 64 KiB of a regular
   * file). `false` judges a command by its text alone.
   */
  readFile?: ((absolute: string) => FileRead) | false;
}

/** Loads the shipped rules plus any extra files and plugin sources; rejects on an invalid rule. */
export async function createRiskEngine(
  options: RiskEngineOptions = {},
): Promise<RiskEngine & { readonly ruleSet: RuleSet }> {
  // Imported here: reading and validating rules loads yaml and ajv, which an engine built from
  // already validated specs (the gate's rule cache) does without.
  const { loadRuleSet } = await import('./rules.js');
  const rules = await loadRuleSet(options.extraRuleFiles ?? [], options.sources ?? []);
  return createRiskEngineFromRuleSet(rules, options);
}

/**
 * An engine over an already compiled rule set (see rule-compile.ts's `ruleSetFromSpecs`), with
 * the same options: the protected paths join the set's `governance` class here, so an engine
 * built from cached specs judges them as one built from the YAML does.
 */
export function createRiskEngineFromRuleSet(
  rules: RuleSet,
  options: Omit<RiskEngineOptions, 'extraRuleFiles' | 'sources'> = {},
): RiskEngine & { readonly ruleSet: RuleSet } {
  const governance = rules.classPatterns.get('governance') ?? [];
  for (const dir of options.protectedPaths ?? [agentgovHome()])
    governance.push(new RegExp(`^${escapeRegExp(path.resolve(dir))}(/|$)`));
  rules.classPatterns.set('governance', governance);
  const limits = {
    nodes: READ_LIMITS.nodes,
    ms: options.readTime?.ms ?? READ_LIMITS.ms,
    wallMs: options.readTime?.wallMs ?? READ_LIMITS.wallMs,
  };
  const readFile = options.readFile === false ? undefined : (options.readFile ?? readRunFile);
  return new RuleEngine(
    rules,
    options.home ?? os.homedir(),
    options.followLinks ?? true,
    options.warm ?? true,
    limits,
    readFile,
  );
}

/**
 * The engine a CLI host uses: the shipped rules, the config's `risk.rules` files (relative to
 * the config file) and every source plugins registered through the `riskRules` hook.
 */
export async function createRiskEngineForHost(
  loaded: LoadedConfig,
  host: PluginHost,
  options: Pick<RiskEngineOptions, 'home'> = {},
): Promise<RiskEngine> {
  return createRiskEngine({
    ...options,
    extraRuleFiles: loaded.config.risk.rules.map((file) => path.resolve(loaded.baseDir, file)),
    sources: host.registries.riskRules.values(),
  });
}

/** Longer shell text is assessed on its first part, and answered at least `ask` (command_unreadable). */
const MAX_COMMAND_CHARS = READ_LIMITS.chars;
/** The score of a command that could not be read in full: `ask`. */
const UNREADABLE_SCORE = 50;
const MAX_EVIDENCE_COMMANDS = 40;
const FILE_TOOLS = new Set(['read', 'write', 'edit', 'search']);
const URL_KEYS = ['url', 'uri', 'href', 'endpoint'];
/** URLs written inside a fetch tool's text arguments, and how many of them are judged. */
const URL_IN_TEXT = /\b(?:https?|file|ftp|gopher|dict):\/\/(?:\[[0-9a-f:.]+\])?[^\s"'<>`)\]]*/gi;
/**
 * Words of a fetch tool's text that read as a host without a scheme (`169.254.169.254/latest`,
 * `[fd00:ec2::254]/latest`, `metadata.google.internal:80/x`): judged when their host is one a
 * rule names (hosts.ts), since the tool may well add the `http://` itself.
 */
const HOST_IN_TEXT = new RegExp(
  '(?:^|[\\s"\'<>`(,;])' +
    String.raw`(\[[0-9a-f:.]+\](?::\d+)?(?:\/[^\s"'<>` +
    '`)]*)?|' +
    String.raw`[a-z0-9][a-z0-9.-]*[.][a-z0-9.-]*(?::\d+)?(?:\/[^\s"'<>` +
    '`)]*)?)',
  'gi',
);
/** How many URLs of a fetch tool's text are judged; past it the call is `ask` (what was not read could be anything). */
const MAX_URLS_IN_TEXT = 200;
const PATH_KEYS = ['file_path', 'path', 'filePath', 'notebook_path', 'target_file', 'filename', 'absolute_path'];
/** File-tool arguments that list several paths (a patch's files). */
const MULTI_PATH_KEYS = ['files', 'paths'];
/** Arguments of an MCP or other tool that hold a shell command (text, or an argv array). */
const COMMAND_KEYS = ['command', 'cmd', 'script', 'shell_command', 'commandLine', 'command_line', 'argv'];
/**
 * How far into nested arguments a tool's call is read (a proxy tool's `{name, arguments: {command}}`),
 * and how many values at most: past either, the call is `ask` — what was not read could do anything.
 */
const NESTED_ARGS = { depth: 6, values: 2000 };
/**
 * Where a shell tool's command is: the command keys, then text typed into a running shell session
 * (Codex's `write_stdin` `chars`, Copilot CLI's `write_bash` `input`) — only for shell tools: an
 * MCP tool's `input` is not a command.
 */
const SHELL_COMMAND_KEYS = [...COMMAND_KEYS, 'chars', 'input'];
/** Arguments of an MCP or other tool that hold a file path (a move has two). */
const GENERIC_PATH_KEYS = [
  ...PATH_KEYS,
  'file',
  'source',
  'destination',
  'target',
  'src',
  'dest',
  'dst',
  'from',
  'to',
  'old_path',
  'new_path',
  'directory',
  'dir',
];
/** Words in a tool's name that say it changes files, or only reads them. */
const WRITE_VERBS = new Set([
  'write',
  'edit',
  'create',
  'update',
  'delete',
  'remove',
  'rm',
  'move',
  'mv',
  'rename',
  'append',
  'put',
  'patch',
  'save',
  'upload',
  'copy',
  'cp',
  'mkdir',
  'replace',
  'insert',
  'set',
  'modify',
  'apply',
  'overwrite',
  'truncate',
  'chmod',
]);
const READ_VERBS = new Set([
  'read',
  'get',
  'view',
  'cat',
  'open',
  'show',
  'list',
  'ls',
  'search',
  'find',
  'grep',
  'stat',
  'info',
  'download',
  'head',
  'tail',
  'glob',
  'tree',
]);

class RuleEngine implements RiskEngine {
  readonly rulesLoaded: number;
  readonly ruleFiles: string[];
  /** Built once: the shell rules, indexed by the programs they name. */
  private readonly shellRules: ShellRuleIndex;
  /** Built once: per file tool, the rules that can hit it (in rule order). */
  private readonly fileRules = new Map<string, CompiledRule[]>();
  /** Built once: the rules about where a fetch tool's URL points. */
  private readonly fetchRules: CompiledRule[];

  constructor(
    readonly ruleSet: RuleSet,
    private readonly home: string,
    private readonly followLinks: boolean,
    warm: boolean,
    private readonly readLimits: ConstructorParameters<typeof ReadBudget>[0],
    private readonly readFile: ((absolute: string) => FileRead) | undefined,
  ) {
    this.rulesLoaded = ruleSet.rules.length;
    this.ruleFiles = [...ruleSet.files];
    this.shellRules = new ShellRuleIndex(ruleSet.rules.filter((rule) => rule.tools.includes('shell')));
    if (warm) warmShellParser();
    for (const tool of FILE_TOOLS) {
      const rules = ruleSet.rules.filter((rule) => {
        const m = rule.match;
        if (!rule.tools.includes(tool as CompiledRule['tools'][number])) return false;
        if (m.perCommand || m.text.length > 0 || m.code.length > 0) return false;
        return m.spec.paths !== undefined || m.pathRegex.length > 0;
      });
      this.fileRules.set(tool, rules);
    }
    this.fetchRules = ruleSet.rules.filter(
      (rule) => rule.tools.includes('fetch') && rule.match.spec.url_hosts !== undefined,
    );
    // Rules about what a file tool writes: their `text` patterns are matched against the content.
    this.argumentRules = ruleSet.rules.filter(
      (rule) =>
        (rule.tools.includes('mcp') || rule.tools.includes('other')) &&
        !rule.match.perCommand &&
        rule.match.text.length > 0,
    );
    this.contentRules = ruleSet.rules.filter(
      (rule) =>
        (rule.tools.includes('write') || rule.tools.includes('edit')) &&
        !rule.match.perCommand &&
        rule.match.text.length > 0,
    );
  }

  /**
   * Built once: the rules about an MCP or other tool's name and argument text (SQL in a query, a repository deleted).
   */
  private readonly argumentRules: CompiledRule[];
  /** Built once: the rules about the text a file tool writes (see assessWrittenContent). */
  private readonly contentRules: CompiledRule[];

  /** Per assessment: each path's real target, read once (links may change between calls). */
  private realPaths(): ((absolute: string) => string) | undefined {
    if (!this.followLinks) return undefined;
    const known = new Map<string, string>();
    const missing = new Set<string>();
    return (absolute) => {
      let real = known.get(absolute);
      if (real === undefined) known.set(absolute, (real = realTarget(absolute, known, missing)));
      return real;
    };
  }

  assess(event: ToolCallEvent): Assessment {
    try {
      return this.assessUnsafe(event);
    } catch (error) {
      // A bug must not take the gate down, nor wave a call through: ask, and say why.
      return {
        score: 50,
        level: 'high',
        action: 'ask',
        reason_code: 'assessment_error',
        evidence: {
          rules: [],
          factors: [`internal error while assessing: ${(error as Error)?.message ?? String(error)}`],
        },
      };
    }
  }

  private assessUnsafe(event: ToolCallEvent): Assessment {
    const tool = typeof event?.canonical_tool === 'string' ? event.canonical_tool : 'other';
    const args: Record<string, unknown> =
      event?.arguments && typeof event.arguments === 'object' ? event.arguments : {};
    const cwd = typeof event?.cwd === 'string' && path.posix.isAbsolute(event.cwd) ? resolvePath(event.cwd) : null;
    const factors: string[] = [];
    if (cwd === null) factors.push('no absolute project root (cwd): relative paths cannot be placed');
    // The home directory, `/`, a top-level or a system directory is never a project: everything
    // under it would count as "inside" it.
    const projectRoot = projectRootOf(cwd, this.home);
    if (cwd !== null && projectRoot === null)
      factors.push(
        `cwd ${cwd} is the home directory, the root or a system directory, not a ` +
          `project: nothing counts as inside the project`,
      );
    if (tool === 'shell') return this.assessShell(args, cwd, projectRoot, factors);
    if (FILE_TOOLS.has(tool)) return this.assessFile(tool, args, cwd, projectRoot, factors);
    if (tool === 'fetch') return this.assessFetch(args, factors, cwd, projectRoot);
    return this.assessByArguments(
      typeof event?.tool_name === 'string' ? event.tool_name : '',
      tool,
      args,
      cwd,
      projectRoot,
      factors,
    );
  }

  /**
   * MCP and other tools have no rules of their own, but many run commands or touch files for the
   * agent (a shell server's `run_command`, a filesystem server's `write_file`): such a call is
   * judged by what its arguments are — a command as a shell command, a path as a file read or
   * write (by the verb in the tool's name; both when the name does not say), a URL as a fetch —
   * and the most severe answer wins.
   */
  private assessByArguments(
    toolName: string,
    tool: string,
    args: Record<string, unknown>,
    cwd: string | null,
    projectRoot: string | null,
    factors: string[],
  ): Assessment {
    const answers: Assessment[] = [];
    const shown = toolName || tool;
    const words = toolName.toLowerCase().split(/[^a-z]+/);
    const writes = words.some((w) => WRITE_VERBS.has(w));
    const reads = words.some((w) => READ_VERBS.has(w));
    const kinds = writes ? ['write'] : reads ? ['read'] : ['read', 'write'];
    // Nested objects are read too: a proxy or meta tool carries the real call one level down
    // (`{name: "shell", arguments: {command: "rm -rf ~"}}`).
    let seen = 0;
    let truncated = false;
    // The tool's name and its argument texts, for the rules about them (`tool_name=…` first).
    const texts: string[] = [`tool_name=${toolName}`];
    const visit = (value: Record<string, unknown>, where: string, depth: number): void => {
      for (const child of Object.values(value)) {
        for (const item of Array.isArray(child) ? child : [child])
          if (typeof item === 'string' && texts.length < NESTED_ARGS.values)
            texts.push(item.length > MAX_COMMAND_CHARS ? item.slice(0, MAX_COMMAND_CHARS) : item);
      }
      // A proxy's inner call names its tool (`CallMcpTool {toolName: "delete_repository"}`).
      for (const key of ['toolName', 'tool_name', 'tool', 'name'])
        if (typeof value[key] === 'string' && depth + (key === 'name' ? 0 : 1) > 0)
          texts.push(`tool_name=${value[key] as string}`);
      const commandKey = COMMAND_KEYS.find((k) => typeof value[k] === 'string' || isWordList(value[k]));
      if (commandKey !== undefined)
        answers.push(
          this.assessShell({ command: value[commandKey] }, cwd, projectRoot, [
            ...factors,
            `${shown} takes a command (${where}.${commandKey}): judged as a shell command`,
          ]),
        );
      for (const key of GENERIC_PATH_KEYS) {
        const raw = value[key];
        if (typeof raw !== 'string' || raw === '') continue;
        // A write keeps the text it writes (a filesystem server's `write_file {path, content}`).
        for (const kind of kinds)
          answers.push(
            this.assessFile(
              kind,
              kind === 'write' ? { ...contentOf(value), file_path: raw } : { file_path: raw },
              cwd,
              projectRoot,
              [...factors, `${shown} names a path (${where}.${key}): judged as a file ${kind}`],
            ),
          );
      }
      for (const key of MULTI_PATH_KEYS) {
        if (!isWordList(value[key])) continue;
        for (const kind of kinds)
          answers.push(
            this.assessFile(kind, { [key]: value[key] }, cwd, projectRoot, [
              ...factors,
              `${shown} names paths (${where}.${key}): judged as file ${kind}s`,
            ]),
          );
      }
      const urlKey = URL_KEYS.find((k) => typeof value[k] === 'string' && value[k] !== '');
      if (urlKey !== undefined) answers.push(this.assessFetch({ url: value[urlKey] }, factors, cwd, projectRoot));
      for (const [key, child] of Object.entries(value)) {
        if (!descend(child, `${where}.${key}`, depth)) return;
      }
    };
    // Lists are read like objects, with the same bounds: a list inside a list (`{steps: [[{command}]]}`)
    // is one level deeper, and each list counts as a value read. False: a bound was passed.
    const descend = (child: unknown, where: string, depth: number): boolean => {
      if (child === null || typeof child !== 'object') return true;
      if (++seen > NESTED_ARGS.values || depth + 1 > NESTED_ARGS.depth) {
        truncated = true;
        return false;
      }
      if (!Array.isArray(child)) {
        visit(child as Record<string, unknown>, where, depth + 1);
        return !truncated;
      }
      for (let index = 0; index < child.length; index++) {
        if (!descend(child[index], `${where}[${index}]`, depth + 1)) return false;
      }
      return true;
    };
    visit(args, 'arguments', 0);
    const hits: Hit[] = [];
    for (const rule of this.argumentRules) {
      if (!rule.tools.includes(tool as CompiledRule['tools'][number])) continue;
      const text = texts.find((t) => rule.match.text.some((re) => re.test(t)));
      if (text !== undefined)
        hits.push({ rule, subject: text.length > 200 ? `${text.slice(0, 197)}...` : text, paths: [], via: [] });
    }
    if (hits.length > 0)
      answers.push(
        finish(
          hits,
          { rules: [], factors: [...factors, `${shown}'s name and arguments were read`] },
          'no_risk_detected',
        ),
      );
    if (truncated)
      answers.push(
        unreadable(finish([], { rules: [], factors: [...factors] }, 'no_risk_detected'), [
          `${shown}'s arguments nest deeper than ` +
            `${NESTED_ARGS.depth} levels or hold more than ` +
            `${NESTED_ARGS.values} objects and lists`,
        ]),
      );
    if (answers.length === 0)
      return finish(
        [],
        {
          rules: [],
          factors: [
            ...factors,
            `tool kind '${tool}' has no risk rules, and its arguments hold no command, path or URL`,
          ],
        },
        'no_risk_detected',
      );
    return mostSevere(answers);
  }

  private assessShell(
    args: Record<string, unknown>,
    cwd: string | null,
    projectRoot: string | null,
    factors: string[],
  ): Assessment {
    const key = SHELL_COMMAND_KEYS.find((k) => args[k] !== undefined) ?? 'command';
    let command = args[key];
    // An argv array (`["bash", "-lc", "rm -rf ~"]`) is quoted, not joined: joined, the shell would split it
    // differently.
    if (isWordList(command)) command = argvToShell(command);
    if (typeof command !== 'string') {
      return invalidArguments([
        ...factors,
        `arguments.${key} is ${command === undefined ? 'missing' : `${describeValue(command)}, not a string`}: ` +
          `the command could not be read`,
      ]);
    }
    if (command.trim() === '')
      return finish([], { rules: [], factors: [...factors, 'empty command'] }, 'no_risk_detected');
    let text = command;
    const budget = new ReadBudget(this.readLimits);
    if (text.length > MAX_COMMAND_CHARS) {
      budget.stop('chars', `command is ${text.length} characters: only the first ${MAX_COMMAND_CHARS} were read`);
      text = text.slice(0, MAX_COMMAND_CHARS);
    }
    if (text.includes('\0')) {
      factors.push('command contains NUL bytes: they were removed before parsing');
      text = text.replace(/\0/g, ' ');
    }
    const normalized = normalizeShell(text, { cwd, home: this.home, budget, readFile: this.readFile });
    factors.push(...normalized.factors);
    const hits = this.normalizedHits(normalized, projectRoot);
    for (const hit of hits) {
      const wrapper = hit.via.find((v) => /^(sudo|doas|su|run0|pkexec)\b/.test(v));
      if (wrapper) factors.push(`${hit.rule.id} runs with elevated privileges (${wrapper})`);
    }
    const commands = normalized.commands.slice(0, MAX_EVIDENCE_COMMANDS).map((c) => commandEvidence(c));
    if (normalized.commands.length > MAX_EVIDENCE_COMMANDS)
      factors.push(`${normalized.commands.length - MAX_EVIDENCE_COMMANDS} more parsed commands not listed`);
    const evidence = { rules: [] as RuleHit[], commands, paths: describePaths(hits), factors: dedupe(factors) };
    const fallback = normalized.parseErrors > 0 ? 'parse_incomplete' : 'no_risk_detected';
    const assessment = finish(hits, evidence, fallback);
    const answer = normalized.unread.length > 0 ? unreadFiles(assessment, normalized.unread) : assessment;
    return budget.exhausted ? unreadable(answer, budget.incomplete) : answer;
  }

  /**
   * The rule hits of normalized commands and code. Code read from a file (a script run by path, a
   * conftest.py written) is a program, not a one-liner: that it spawns processes or deletes trees
   * is ordinary there (`interpreter_dangerous_call`); what it spawns, reads and sends is judged.
   */
  private normalizedHits(normalized: Normalized, projectRoot: string | null): Hit[] {
    const hits = this.shellRules.hits(normalized, {
      projectRoot,
      home: this.home,
      classPatterns: this.ruleSet.classPatterns,
      realPath: this.realPaths(),
    });
    return hits.filter((hit) => {
      if (hit.rule.reasonCode === 'interpreter_dangerous_call' && hit.via.some((v) => /^(runs file|writes) /.test(v)))
        return false;
      // What a written file will do on request (publish, tear down, push) is judged when it is run.
      return !(WRITE_TIME_LATER.has(hit.rule.reasonCode) && hit.via.some((v) => v.startsWith('writes ')));
    });
  }

  /**
   * Write, then run: what a file tool writes is judged by what it makes runnable (package.json's
   * scripts, a makefile's recipes, a task, an MCP server, a git hook, a CI workflow, a script) and
   * by the content rules (settings that auto-approve tools). Undefined when it runs nothing known.
   */
  private assessWrittenContent(
    resolved: string,
    content: string,
    cwd: string | null,
    projectRoot: string | null,
    factors: string[],
  ): Assessment | undefined {
    const answers: Assessment[] = [];
    const text = content.length > MAX_COMMAND_CHARS ? content.slice(0, MAX_COMMAND_CHARS) : content;
    const runnable = runnableContent(resolved, text);
    if (runnable.scripts.length > 0 || runnable.code.length > 0) {
      const budget = new ReadBudget(this.readLimits);
      const normalized = normalizeRunnable(runnable, { cwd, home: this.home, budget, verb: 'writes' });
      const hits = this.normalizedHits(normalized, projectRoot);
      const commands = normalized.commands.slice(0, MAX_EVIDENCE_COMMANDS).map((c) => commandEvidence(c));
      const evidence = {
        rules: [] as RuleHit[],
        commands,
        paths: describePaths(hits),
        factors: dedupe([
          ...factors,
          `${resolved} is run by a tool later: what it runs was judged`,
          ...normalized.factors,
        ]),
      };
      // Not read in full, a written file is still judged on what was read: running it is judged again.
      answers.push(finish(hits, evidence, 'no_risk_detected'));
    }
    if (runnable.autorun.length > 0)
      answers.push(fixedAnswer(55, 'persistence', [...factors, ...runnable.autorun.map((a) => `${resolved}: ${a}`)]));
    const tilde = resolved.startsWith(`${this.home}/`) ? `~${resolved.slice(this.home.length)}` : resolved;
    const hits: Hit[] = [];
    for (const rule of this.contentRules) {
      const m = rule.match;
      if (m.pathRegex.length > 0 && !m.pathRegex.some((re) => re.test(resolved) || re.test(tilde))) continue;
      if (m.text.some((re) => re.test(text))) hits.push({ rule, subject: resolved, paths: [], via: [] });
    }
    if (hits.length > 0)
      answers.push(
        finish(
          hits,
          { rules: [], factors: dedupe([...factors, `the content written to ${resolved} was read`]) },
          'no_risk_detected',
        ),
      );
    return answers.length > 0 ? mostSevere(answers) : undefined;
  }

  /**
   * Fetch tools: the URL's host, read through the URL parser (see hosts.ts). A `file:` URL is a
   * read of that file, judged as the read tool would judge it.
   */
  private assessFetch(
    args: Record<string, unknown>,
    factors: string[],
    cwd: string | null,
    projectRoot: string | null,
  ): Assessment {
    const key = URL_KEYS.find((k) => typeof args[k] === 'string' && args[k] !== '');
    if (key === undefined) {
      // A fetch tool that takes its URLs inside text (Gemini CLI's web_fetch `prompt`): each URL in it.
      const texts = Object.values(args).filter((v): v is string => typeof v === 'string');
      const schemed = texts.flatMap((v) => v.match(URL_IN_TEXT) ?? []);
      const bare = texts.flatMap((v) =>
        [...v.matchAll(HOST_IN_TEXT)].map((m) => (m[1] ?? '').replace(/[.,;:!?]+$/, '')),
      );
      const named = [...new Set([...schemed, ...bare.filter((host) => hostClasses(host).length > 0)])];
      const urls = named.slice(0, MAX_URLS_IN_TEXT);
      if (urls.length === 0)
        return finish(
          [],
          { rules: [], factors: [...factors, `no URL among ${URL_KEYS.join(', ')} or in the text of the arguments`] },
          'no_risk_detected',
        );
      if (named.length > urls.length) {
        const judged = mostSevere(
          urls.map((url) =>
            this.assessFetch({ url }, [...factors, `${url} is named in the arguments' text`], cwd, projectRoot),
          ),
        );
        return unreadable(judged, [
          `the arguments' text names ${named.length} URLs; only the first ${MAX_URLS_IN_TEXT} were judged`,
        ]);
      }
      return mostSevere(
        urls.map((url) =>
          this.assessFetch({ url }, [...factors, `${url} is named in the arguments' text`], cwd, projectRoot),
        ),
      );
    }
    const url = args[key] as string;
    if (/^\s*file:/i.test(url)) {
      let file: string | null = null;
      try {
        file = fileURLToPath(new URL(url.trim()));
      } catch {
        file = null;
      }
      if (file === null)
        return invalidArguments([
          ...factors,
          `${url} is a file: URL that names no local path (a remote host, or malformed)`,
        ]);
      return this.assessPath('read', file, cwd, projectRoot, [
        ...factors,
        `${url} is a file: URL: judged as a read of ${file}`,
      ]);
    }
    const classes = hostClasses(url);
    const hits: Hit[] = [];
    for (const rule of this.fetchRules)
      if (classes.some((c) => rule.match.spec.url_hosts?.includes(c)))
        hits.push({ rule, subject: url, paths: [], via: [] });
    const evidence = {
      rules: [],
      factors: dedupe([...factors, ...(classes.length > 0 ? [`${url} points at a ${classes.join(', ')} host`] : [])]),
    };
    return finish(hits, evidence, 'no_risk_detected');
  }

  /**
   * File tools: the path in one of GENERIC_PATH_KEYS, and every path of a `files`/`paths` list (a patch that
   * touches several files: Codex's apply_patch); the most severe answer wins.
   */
  private assessFile(
    tool: string,
    args: Record<string, unknown>,
    cwd: string | null,
    projectRoot: string | null,
    factors: string[],
  ): Assessment {
    // A file tool's own path keys first (GENERIC_PATH_KEYS begins with them); else any key a path goes by (`file`,
    // `target`, …).
    const key = GENERIC_PATH_KEYS.find((k) => typeof args[k] === 'string' && args[k] !== '');
    const listed = MULTI_PATH_KEYS.flatMap((k) =>
      Array.isArray(args[k])
        ? (args[k] as unknown[]).filter((p): p is string => typeof p === 'string' && p !== '')
        : [],
    );
    const paths = [...new Set([...(key === undefined ? [] : [args[key] as string]), ...listed])];
    if (paths.length === 0) {
      const why = `no file path among ${[...GENERIC_PATH_KEYS, ...MULTI_PATH_KEYS].join(', ')}`;
      // A search without a path searches the project; a read, write or edit without one could be of anything.
      if (tool === 'search') return finish([], { rules: [], factors: [...factors, why] }, 'no_risk_detected');
      return invalidArguments([...factors, why]);
    }
    const answers = paths.map((raw) => this.assessPath(tool, raw, cwd, projectRoot, factors));
    if (tool === 'write' || tool === 'edit') {
      for (const [raw, content] of writtenContents(args, paths)) {
        const resolved = raw.startsWith('/')
          ? path.posix.normalize(raw)
          : cwd !== null
            ? path.posix.resolve(cwd, raw)
            : raw;
        const answer = this.assessWrittenContent(resolved, content, cwd, projectRoot, factors);
        if (answer !== undefined) answers.push(answer);
      }
    }
    return mostSevere(answers);
  }

  private assessPath(
    tool: string,
    raw: string,
    cwd: string | null,
    projectRoot: string | null,
    factors: string[],
  ): Assessment {
    const classified = classifyPath(raw, {
      cwd,
      projectRoot,
      home: this.home,
      env: {},
      classPatterns: this.ruleSet.classPatterns,
      realPath: this.realPaths(),
    });
    const tilde =
      classified.resolved && classified.resolved.startsWith(`${this.home}/`)
        ? `~${classified.resolved.slice(this.home.length)}`
        : classified.resolved;
    const hits: Hit[] = [];
    for (const rule of this.fileRules.get(tool) ?? []) {
      const m = rule.match;
      if (m.spec.paths && !classified.classes.some((c) => m.spec.paths?.includes(c))) continue;
      if (
        m.pathRegex.length > 0 &&
        !m.pathRegex.some((re) => re.test(classified.resolved ?? raw) || (tilde !== null && re.test(tilde)))
      )
        continue;
      hits.push({ rule, subject: raw, paths: [classified], via: [] });
    }
    return finish(
      hits,
      { rules: [], paths: describePaths([{ paths: [classified] }]), factors: dedupe(factors) },
      'no_risk_detected',
    );
  }
}

/**
 * A command not read in full is answered at least `ask`: what was not read could do anything. A
 * hit on the part that was read that asks for more keeps its own answer; the evidence names the
 * limits either way.
 */
function unreadable(assessment: Assessment, reasons: string[]): Assessment {
  const factors = [...(assessment.evidence.factors ?? []), ...reasons.map((r) => `not read in full: ${r}`)];
  const evidence = { ...assessment.evidence, factors };
  if (actionSeverity(assessment.action) >= actionSeverity('ask') && assessment.score >= UNREADABLE_SCORE)
    return { ...assessment, evidence };
  const score = Math.max(assessment.score, UNREADABLE_SCORE);
  return { score, level: levelForScore(score), action: 'ask', reason_code: 'command_unreadable', evidence };
}

/**
 * Reasons a written file's commands are not held against the write: a release workflow publishes,
 * a makefile's `destroy` target tears down, a script pushes — on request, judged when they run.
 */
const WRITE_TIME_LATER = new Set([
  'package_publish',
  'global_install',
  'infrastructure_destroy',
  'git_history_loss',
  'git_worktree_discard',
  'broad_process_kill',
  'system_power',
]);

/** A command that runs files the gate could not read (too large, not a regular file): at least `ask`. */
function unreadFiles(assessment: Assessment, reasons: string[]): Assessment {
  const factors = [...(assessment.evidence.factors ?? []), ...reasons.map((r) => `runs a file not judged: ${r}`)];
  const evidence = { ...assessment.evidence, factors };
  if (actionSeverity(assessment.action) >= actionSeverity('ask') && assessment.score >= UNREADABLE_SCORE)
    return { ...assessment, evidence };
  const score = Math.max(assessment.score, UNREADABLE_SCORE);
  return { score, level: levelForScore(score), action: 'ask', reason_code: 'runs_file', evidence };
}

/** An answer no rule gave (a task that runs when a folder opens): its score, reason and why. */
function fixedAnswer(score: number, reason: string, factors: string[]): Assessment {
  return {
    score,
    level: levelForScore(score),
    action: actionForScore(score),
    reason_code: reason,
    evidence: { rules: [], factors: dedupe(factors) },
  };
}

/** The written-text keys of a tool's arguments (see CONTENT_KEYS), for judging what they write. */
function contentOf(value: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of [...CONTENT_KEYS, 'edits', 'patch']) if (value[key] !== undefined) kept[key] = value[key];
  return kept;
}

/** Keys a file tool's written text goes by: a whole file (`content`), or an edit's new text. */
const CONTENT_KEYS = [
  'content',
  'contents',
  'file_text',
  'new_string',
  'new_str',
  'newText',
  'new_text',
  'code_edit',
  'text',
  'replacement',
];

/**
 * The text a file-tool call writes, per path: its content key, the new text of every edit in an
 * `edits` list, or the added lines of each file of a patch (Codex's apply_patch).
 */
function writtenContents(args: Record<string, unknown>, paths: string[]): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const first = paths[0];
  const key = CONTENT_KEYS.find((k) => typeof args[k] === 'string');
  if (first !== undefined && key !== undefined) found.push([first, args[key] as string]);
  if (first !== undefined && Array.isArray(args['edits'])) {
    const texts = (args['edits'] as unknown[]).flatMap((e) =>
      e && typeof e === 'object'
        ? CONTENT_KEYS.map((k) => (e as Record<string, unknown>)[k]).filter((v): v is string => typeof v === 'string')
        : [],
    );
    if (texts.length > 0) found.push([first, texts.join('\n')]);
  }
  const patch =
    typeof args['patch'] === 'string'
      ? args['patch']
      : typeof args['input'] === 'string' && /^\*\*\* Begin Patch/m.test(args['input'])
        ? args['input']
        : undefined;
  if (patch !== undefined) {
    let current: string | undefined;
    const added = new Map<string, string[]>();
    for (const line of patch.split('\n')) {
      const header = /^\*\*\* (?:Add File|Update File|Move to): (.+)$/.exec(line);
      if (header) {
        current = (header[1] ?? '').trim();
        if (!added.has(current)) added.set(current, []);
      } else if (/^\*\*\* (Delete File|End Patch)/.test(line)) current = undefined;
      else if (current !== undefined && line.startsWith('+')) added.get(current)?.push(line.slice(1));
    }
    for (const [file, lines] of added) if (lines.length > 0) found.push([file, lines.join('\n')]);
  }
  return found;
}

/**
 * A call whose command or path could not be read (missing, not text, a key we do not know) is
 * `ask`: the agent's program may read it differently, and what was not read could do anything.
 */
function invalidArguments(factors: string[]): Assessment {
  return {
    score: UNREADABLE_SCORE,
    level: levelForScore(UNREADABLE_SCORE),
    action: 'ask',
    reason_code: 'invalid_arguments',
    evidence: { rules: [], factors: dedupe(factors) },
  };
}

function isWordList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((w) => typeof w === 'string');
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array of non-strings';
  return `a ${typeof value}`;
}

function finish(hits: Hit[], evidence: Assessment['evidence'], fallback: string): Assessment {
  if (hits.length === 0) {
    const score = fallback === 'parse_incomplete' ? 10 : 0;
    return { score, level: levelForScore(score), action: 'allow', reason_code: fallback, evidence };
  }
  const ranked = rank(hits);
  const top = ranked[0] as Hit;
  let action: RiskAction = 'allow';
  for (const h of ranked) if (actionSeverity(hitAction(h)) > actionSeverity(action)) action = hitAction(h);
  evidence.rules = ranked.map((h) => ({
    rule_id: h.rule.id,
    score: h.rule.score,
    reason_code: h.rule.reasonCode,
    action: hitAction(h),
    subject: h.subject,
  }));
  return {
    score: top.rule.score,
    level: levelForScore(top.rule.score),
    action,
    reason_code: top.rule.reasonCode,
    evidence,
  };
}

/**
 * Hits by score, then by action, highest first; ties keep their rule order. An insertion sort:
 * the same order as a stable Array#sort, without its allocations for the usual one to three hits.
 */
function rank(hits: Hit[]): Hit[] {
  const ranked = hits.slice();
  for (let i = 1; i < ranked.length; i += 1) {
    const hit = ranked[i] as Hit;
    let j = i - 1;
    while (j >= 0 && outranks(hit, ranked[j] as Hit)) {
      ranked[j + 1] = ranked[j] as Hit;
      j -= 1;
    }
    ranked[j + 1] = hit;
  }
  return ranked;
}

function outranks(a: Hit, b: Hit): boolean {
  return (
    a.rule.score > b.rule.score ||
    (a.rule.score === b.rule.score && actionSeverity(hitAction(a)) > actionSeverity(hitAction(b)))
  );
}

function hitAction(hit: Hit): RiskAction {
  return hit.rule.action ?? actionForScore(hit.rule.score);
}

function commandEvidence(cmd: ParsedCommand): Record<string, unknown> {
  const entry: Record<string, unknown> = { argv: cmd.argv };
  if (cmd.cwd !== null) entry.cwd = cmd.cwd;
  if (cmd.via.length > 0) entry.via = cmd.via;
  if (cmd.redirects.length > 0) entry.redirects = cmd.redirects.map((r) => `${r.op} ${r.target}`);
  if (cmd.inputFrom.length > 0) entry.input_from = [...new Set(cmd.inputFrom)];
  return entry;
}

function describePaths(hits: Array<{ paths: ClassifiedPath[] }>): string[] {
  const seen = new Set<string>();
  for (const hit of hits)
    for (const p of hit.paths)
      seen.add(`${p.raw}${p.resolved && p.resolved !== p.raw ? ` → ${p.resolved}` : ''} (${p.classes.join(', ')})`);
  return [...seen];
}

function dedupe(items: string[]): string[] {
  return [...new Set(items)];
}

/**
 * Of several readings of one call (its command, each path, its URL), the one with the strictest action, then the
 * highest score.
 */
function mostSevere(answers: Assessment[]): Assessment {
  let worst = answers[0] as Assessment;
  for (const answer of answers.slice(1))
    if (
      actionSeverity(answer.action) > actionSeverity(worst.action) ||
      (answer.action === worst.action && answer.score > worst.score)
    )
      worst = answer;
  return worst;
}
