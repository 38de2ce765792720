import os from 'node:os';
import path from 'node:path';
import type { Assessment, LoadedConfig, PluginHost, RiskAction, RiskRuleSource, RuleHit, ToolCallEvent } from '@agentgov/core';
import { commandScratch, matchCommand, type CommandScratch } from './match.js';
import { normalizeShell, type ParsedCommand } from './normalize.js';
import { classifyPath, type ClassifiedPath } from './paths.js';
import { loadRuleSet, type CompiledRule, type RuleSet } from './rules.js';
import { actionForScore, actionSeverity, levelForScore } from './scoring.js';

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
}

/** Loads the shipped rules plus any extra files and plugin sources; rejects on an invalid rule. */
export async function createRiskEngine(options: RiskEngineOptions = {}): Promise<RiskEngine> {
  const rules = await loadRuleSet(options.extraRuleFiles ?? [], options.sources ?? []);
  return new RuleEngine(rules, options.home ?? os.homedir());
}

/**
 * The engine a CLI host uses: the shipped rules, the config's `risk.rules` files (relative to
 * the config file) and every source plugins registered through the `riskRules` hook.
 */
export async function createRiskEngineForHost(loaded: LoadedConfig, host: PluginHost, options: Pick<RiskEngineOptions, 'home'> = {}): Promise<RiskEngine> {
  return createRiskEngine({
    ...options,
    extraRuleFiles: loaded.config.risk.rules.map((file) => path.resolve(loaded.baseDir, file)),
    sources: host.registries.riskRules.values(),
  });
}

/** Longer shell text is assessed on its first part (and says so). */
const MAX_COMMAND_CHARS = 32 * 1024;
const MAX_EVIDENCE_COMMANDS = 40;
const FILE_TOOLS = new Set(['read', 'write', 'edit', 'search']);
const PATH_KEYS = ['file_path', 'path', 'filePath', 'notebook_path', 'target_file', 'filename'];

/** A shell rule and its position among the shell rules (its slot in per-command candidate masks). */
interface ShellRule {
  rule: CompiledRule;
  index: number;
}

/** What one assessment works out once about its commands, for all rules. */
interface ShellWork {
  /** Per command (same index), 1 at the index of each rule whose `command` can match its program. */
  candidates: Uint8Array[];
  /** 1 at the index of each rule some command is a candidate for. */
  anyCommand: Uint8Array;
  scratches: Array<CommandScratch | null>;
}

interface Hit {
  rule: CompiledRule;
  subject: string;
  paths: ClassifiedPath[];
  via: string[];
}

class RuleEngine implements RiskEngine {
  readonly rulesLoaded: number;
  readonly ruleFiles: string[];
  /** Built once: the shell rules, in rule order. */
  private readonly shellRules: ShellRule[];
  /** Built once: shell rules by the literal program names they name, and the rules with a wildcard glob. */
  private readonly byProgram = new Map<string, ShellRule[]>();
  private readonly globRules: ShellRule[];
  /** Built once: per file tool, the rules that can hit it (in rule order). */
  private readonly fileRules = new Map<string, CompiledRule[]>();

  constructor(
    private readonly set: RuleSet,
    private readonly home: string,
  ) {
    this.rulesLoaded = set.rules.length;
    this.ruleFiles = [...set.files];
    this.shellRules = set.rules.filter((rule) => rule.tools.includes('shell')).map((rule, index) => ({ rule, index }));
    for (const shellRule of this.shellRules) {
      for (const program of shellRule.rule.match.commandMatcher?.names ?? []) {
        const list = this.byProgram.get(program) ?? [];
        list.push(shellRule);
        this.byProgram.set(program, list);
      }
    }
    this.globRules = this.shellRules.filter((r) => r.rule.match.commandMatcher?.glob);
    for (const tool of FILE_TOOLS) {
      const rules = set.rules.filter((rule) => {
        const m = rule.match;
        if (!rule.tools.includes(tool as CompiledRule['tools'][number])) return false;
        if (m.perCommand || m.text.length > 0 || m.code.length > 0) return false;
        return m.spec.paths !== undefined || m.pathRegex.length > 0;
      });
      this.fileRules.set(tool, rules);
    }
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
        evidence: { rules: [], factors: [`internal error while assessing: ${(error as Error)?.message ?? String(error)}`] },
      };
    }
  }

  private assessUnsafe(event: ToolCallEvent): Assessment {
    const tool = typeof event?.canonical_tool === 'string' ? event.canonical_tool : 'other';
    const args: Record<string, unknown> = event?.arguments && typeof event.arguments === 'object' ? event.arguments : {};
    const cwd = typeof event?.cwd === 'string' && path.posix.isAbsolute(event.cwd) ? path.posix.resolve(event.cwd) : null;
    const factors: string[] = [];
    if (cwd === null) factors.push('no absolute project root (cwd): relative paths cannot be placed');
    // The home directory or `/` is never a project: everything would count as "inside" it.
    const projectRoot = cwd === this.home || cwd === '/' ? null : cwd;
    if (cwd !== null && projectRoot === null) factors.push(`cwd ${cwd} is the home directory or the root, not a project: nothing counts as inside the project`);
    if (tool === 'shell') return this.assessShell(args, cwd, projectRoot, factors);
    if (FILE_TOOLS.has(tool)) return this.assessFile(tool, args, cwd, projectRoot, factors);
    return finish([], { rules: [], factors: [...factors, `tool kind '${tool}' has no risk rules`] }, 'no_risk_detected');
  }

  private assessShell(args: Record<string, unknown>, cwd: string | null, projectRoot: string | null, factors: string[]): Assessment {
    let command = args.command ?? args.cmd;
    if (Array.isArray(command) && command.every((c) => typeof c === 'string')) command = command.join(' ');
    if (typeof command !== 'string') {
      return finish([], { rules: [], factors: [...factors, `arguments.command is ${command === undefined ? 'missing' : `a ${typeof command}, not a string`}: nothing to assess`] }, 'invalid_arguments');
    }
    if (command.trim() === '') return finish([], { rules: [], factors: [...factors, 'empty command'] }, 'no_risk_detected');
    let text = command;
    if (text.length > MAX_COMMAND_CHARS) {
      factors.push(`command is ${text.length} characters: only the first ${MAX_COMMAND_CHARS} were assessed`);
      text = text.slice(0, MAX_COMMAND_CHARS);
    }
    if (/\0/.test(text)) {
      factors.push('command contains NUL bytes: they were removed before parsing');
      text = text.replace(/\0/g, ' ');
    }
    const normalized = normalizeShell(text, { cwd, home: this.home });
    factors.push(...normalized.factors);
    const hits: Hit[] = [];
    const pathContext = { projectRoot, home: this.home, classPatterns: this.set.classPatterns };
    const work = this.shellWork(normalized.commands);
    for (const shellRule of this.shellRules) {
      const hit = this.shellRuleHit(shellRule, normalized.commands, normalized.scripts, normalized.code, pathContext, work);
      if (hit) hits.push(hit);
    }
    for (const hit of hits) {
      const wrapper = hit.via.find((v) => /^(sudo|doas|su|run0|pkexec)\b/.test(v));
      if (wrapper) factors.push(`${hit.rule.id} runs with elevated privileges (${wrapper})`);
    }
    const commands = normalized.commands.slice(0, MAX_EVIDENCE_COMMANDS).map((c) => commandEvidence(c));
    if (normalized.commands.length > MAX_EVIDENCE_COMMANDS) factors.push(`${normalized.commands.length - MAX_EVIDENCE_COMMANDS} more parsed commands not listed`);
    const evidence = { rules: [] as RuleHit[], commands, paths: describePaths(hits), factors: dedupe(factors) };
    const fallback = normalized.parseErrors > 0 ? 'parse_incomplete' : 'no_risk_detected';
    return finish(hits, evidence, fallback);
  }

  /**
   * Per command, the shell rules whose `command` can name its program (worked out once per
   * program); rules that name no program are candidates for every command and are not marked.
   */
  private shellWork(commands: ParsedCommand[]): ShellWork {
    const size = this.shellRules.length;
    const byProgram = new Map<string, Uint8Array>();
    const anyCommand = new Uint8Array(size);
    const candidates = commands.map((cmd) => {
      const program = cmd.argv[0] ?? '';
      let mask = byProgram.get(program);
      if (mask === undefined) {
        mask = new Uint8Array(size);
        for (const r of this.byProgram.get(program) ?? []) mask[r.index] = 1;
        for (const r of this.globRules) if (r.rule.match.commandMatcher?.glob?.test(program)) mask[r.index] = 1;
        for (let i = 0; i < size; i += 1) anyCommand[i] ||= mask[i] ?? 0;
        byProgram.set(program, mask);
      }
      return mask;
    });
    return { candidates, anyCommand, scratches: commands.map(() => null) };
  }

  private shellRuleHit(shellRule: ShellRule, commands: ParsedCommand[], scripts: string[], code: Array<{ code: string; via: string[] }>, pathContext: { projectRoot: string | null; home: string; classPatterns: Map<string, RegExp[]> }, work: ShellWork): Hit | null {
    const rule = shellRule.rule;
    const m = rule.match;
    const anyProgram = m.commandMatcher === undefined;
    // No command can satisfy the rule's `command`: it cannot hit, whatever its text or code says.
    if (m.perCommand && !anyProgram && work.anyCommand[shellRule.index] !== 1) return null;
    let subject: string | undefined;
    let via: string[] = [];
    if (m.text.length > 0) {
      const script = scripts.find((s) => m.text.some((re) => re.test(s)));
      if (script === undefined) return null;
      subject = script;
    }
    if (m.code.length > 0) {
      const inline = code.find((c) => m.code.some((re) => re.test(c.code)));
      if (!inline) return null;
      subject = inline.code;
      via = inline.via;
    }
    if (!m.perCommand) return subject === undefined ? null : { rule, subject: clip(subject), paths: [], via };
    for (const [i, cmd] of commands.entries()) {
      // Only commands whose program the rule's `command` can match are tried.
      if (!anyProgram && work.candidates[i]?.[shellRule.index] !== 1) continue;
      const scratch = (work.scratches[i] ??= commandScratch());
      const found = matchCommand(m, cmd, pathContext, scratch);
      if (found) return { rule, subject: clip(found.subject), paths: found.paths, via: cmd.via };
    }
    return null;
  }

  private assessFile(tool: string, args: Record<string, unknown>, cwd: string | null, projectRoot: string | null, factors: string[]): Assessment {
    const key = PATH_KEYS.find((k) => typeof args[k] === 'string' && args[k] !== '');
    if (key === undefined) {
      const code = tool === 'search' ? 'no_risk_detected' : 'invalid_arguments';
      return finish([], { rules: [], factors: [...factors, `no file path among ${PATH_KEYS.join(', ')}`] }, code);
    }
    const raw = args[key] as string;
    const classified = classifyPath(raw, { cwd, projectRoot, home: this.home, env: {}, classPatterns: this.set.classPatterns });
    const tilde = classified.resolved && classified.resolved.startsWith(`${this.home}/`) ? `~${classified.resolved.slice(this.home.length)}` : classified.resolved;
    const hits: Hit[] = [];
    for (const rule of this.fileRules.get(tool) ?? []) {
      const m = rule.match;
      if (m.spec.paths && !classified.classes.some((c) => m.spec.paths?.includes(c))) continue;
      if (m.pathRegex.length > 0 && !m.pathRegex.some((re) => re.test(classified.resolved ?? raw) || (tilde !== null && re.test(tilde)))) continue;
      hits.push({ rule, subject: raw, paths: [classified], via: [] });
    }
    return finish(hits, { rules: [], paths: describePaths([{ paths: [classified] }]), factors: dedupe(factors) }, 'no_risk_detected');
  }
}

function finish(hits: Hit[], evidence: Assessment['evidence'], fallback: string): Assessment {
  if (hits.length === 0) {
    const score = fallback === 'parse_incomplete' ? 10 : 0;
    return { score, level: levelForScore(score), action: 'allow', reason_code: fallback, evidence };
  }
  const ranked = [...hits].sort((a, b) => b.rule.score - a.rule.score || actionSeverity(hitAction(b)) - actionSeverity(hitAction(a)));
  const top = ranked[0] as Hit;
  const action = ranked.reduce<RiskAction>((acc, h) => (actionSeverity(hitAction(h)) > actionSeverity(acc) ? hitAction(h) : acc), 'allow');
  evidence.rules = ranked.map((h) => ({ rule_id: h.rule.id, score: h.rule.score, reason_code: h.rule.reasonCode, action: hitAction(h), subject: h.subject }));
  return { score: top.rule.score, level: levelForScore(top.rule.score), action, reason_code: top.rule.reasonCode, evidence };
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
  for (const hit of hits) for (const p of hit.paths) seen.add(`${p.raw}${p.resolved && p.resolved !== p.raw ? ` → ${p.resolved}` : ''} (${p.classes.join(', ')})`);
  return [...seen];
}

function dedupe(items: string[]): string[] {
  return [...new Set(items)];
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
