/**
 * Reading and validating risk rules: the YAML files (shipped, from the config's `risk.rules`, from
 * plugins) and plugins' rule objects, checked against the rule schema, then compiled
 * (rule-compile.ts). yaml and ajv are loaded here only, so a gate call that finds its rules in the
 * rule cache (rule-cache.ts) never pays for them.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RiskRuleSource } from '@agentgov/core';
import { AgentgovError } from '@agentgov/core/errors';
import { Ajv, type ErrorObject } from 'ajv';
import { parse as parseYaml } from 'yaml';
import {
  DEFAULT_RULE_FILES,
  defaultRulesDir,
  programGlobProblem,
  ruleSetFromSpecs,
  toRegex,
  type RuleSet,
  type RuleSourceSpec,
} from './rule-compile.js';
import { needleTable } from './needles.js';
import { RISK_RULE_SCHEMA, RULE_FILE_SCHEMA, type RiskRuleSpec, type RuleFileSpec } from './rule-schema.js';

export {
  compileRule,
  DEFAULT_RULE_FILES,
  defaultRulesDir,
  matchesProgram,
  ruleSetFromSpecs,
  toRegex,
} from './rule-compile.js';
export type { CompiledMatch, CompiledRule, ProgramMatcher, RuleSet, RuleSourceSpec } from './rule-compile.js';

const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addFormat('regex', (value: string) => {
  try {
    toRegex(value);
    return true;
  } catch {
    return false;
  }
});
ajv.addFormat('program-glob', (value: string) => programGlobProblem(value) === undefined);
const validateFile = ajv.compile<RuleFileSpec>(RULE_FILE_SCHEMA);
const validateRule = ajv.compile<RiskRuleSpec>(RISK_RULE_SCHEMA);

/**
 * The shipped rule files, then `extraFiles`, then the sources' files, then the sources' rule objects: read, validated,
 * compiled.
 */
export async function loadRuleSet(extraFiles: string[], sources: RiskRuleSource[]): Promise<RuleSet> {
  const specs = await readRuleSources(extraFiles, sources);
  return ruleSetFromSpecs(specs, needleTable(specs.map((source) => source.spec)));
}

/** The validated specs of every rule source, in the order they are compiled. */
export async function readRuleSources(extraFiles: string[], sources: RiskRuleSource[]): Promise<RuleSourceSpec[]> {
  const specs: RuleSourceSpec[] = [];
  const files = [
    ...DEFAULT_RULE_FILES.map((f) => path.join(defaultRulesDir(), f)),
    ...extraFiles.map((f) => path.resolve(f)),
  ];
  for (const source of sources) if (source.file) files.push(path.resolve(source.file));
  for (const file of files) specs.push(await readRuleFile(file));
  for (const source of sources) {
    if (!source.rules) continue;
    const origin = `plugin:${source.name}`;
    const rules = source.rules.map((rule, index) => {
      if (!validateRule(rule)) throw invalid(origin, validateRule.errors ?? [], `/rules/${index}`);
      return rule;
    });
    specs.push({ origin, spec: { rules } });
  }
  return specs;
}

async function readRuleFile(file: string): Promise<RuleSourceSpec> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new AgentgovError('E_CONFIG_INVALID', `risk rules file ${file} cannot be read: ${(error as Error).message}`, {
      file,
    });
  }
  let data: unknown;
  try {
    data = parseYaml(bytes.toString('utf8'));
  } catch (error) {
    throw new AgentgovError(
      'E_CONFIG_INVALID',
      `risk rules file ${file} is not valid YAML: ${(error as Error).message}`,
      { file },
    );
  }
  if (!validateFile(data)) throw invalid(file, validateFile.errors ?? []);
  return { origin: file, file, sha256: createHash('sha256').update(bytes).digest('hex'), spec: data };
}

function invalid(origin: string, errors: ErrorObject[], prefix = ''): AgentgovError {
  const problems = errors.map((e) => {
    const glob = e.keyword === 'format' && e.params.format === 'program-glob' ? programGlobProblem(String(e.data)) : '';
    const message = glob ? `is not a valid glob (${glob})` : (e.message ?? 'is invalid');
    return `${prefix}${e.instancePath || '/'} ${message}`;
  });
  return new AgentgovError(
    'E_CONFIG_INVALID',
    `risk rules from ${origin} do not match the rule schema: ${problems.join('; ')}`,
    { origin, problems },
  );
}
