import { Ajv, type ErrorObject } from 'ajv';
import { closest } from 'fastest-levenshtein';
import { ConfigDocument, pointerToKeyPath, type ConfigIssue, type KeyPath } from './document.js';
import { CONFIG_SCHEMA, TOP_LEVEL_KEYS } from './schema.js';
import { pathGlobProblem } from '../paths/glob.js';

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false, verbose: true });
const validateConfigSchema = ajv.compile(CONFIG_SCHEMA);

/** Turns ajv errors into config issues located in the document, under `base`. */
export function schemaIssues(
  errors: ErrorObject[] | null | undefined,
  document: ConfigDocument | undefined,
  base: KeyPath = [],
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const error of errors ?? []) {
    if (error.keyword === 'if') continue;
    const path = [...base, ...pointerToKeyPath(error.instancePath)];
    if (error.keyword === 'additionalProperties') {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const allowed = Object.keys(
        ((error.parentSchema as { properties?: object } | undefined)?.properties ?? {}) as object,
      );
      const hint = allowed.length ? ` (did you mean '${closest(key, allowed)}'? allowed: ${allowed.join(', ')})` : '';
      issues.push(locate(document, 'error', [...path, key], `unknown key '${key}'${hint}`, true));
      continue;
    }
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'enum')
      message = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues
        .map((v) => JSON.stringify(v))
        .join(', ')}`;
    if (error.keyword === 'type')
      message = `must be ${(error.params as { type: string | string[] }).type.toString().replace(',', ' or ')}`;
    issues.push(locate(document, 'error', path, message));
  }
  return dedupe(issues);
}

function locate(
  document: ConfigDocument | undefined,
  severity: ConfigIssue['severity'],
  path: KeyPath,
  message: string,
  keyOf = false,
): ConfigIssue {
  if (document) return document.issue(severity, path, message, keyOf);
  return { severity, path: path.map(String).join('.') || '(root)', message };
}

/** One issue per key path: ajv reports e.g. both `type` and `enum` for one bad value; the first is the clearest. */
function dedupe(issues: ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    if (seen.has(i.path)) return false;
    seen.add(i.path);
    return true;
  });
}

/** Validates a parsed config value against the schema. Unknown top-level keys are warnings. */
export function validateConfigValue(value: unknown, document?: ConfigDocument): ConfigIssue[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [locate(document, 'error', [], 'the configuration must be a mapping of keys to values')];
  }
  const issues: ConfigIssue[] = [];
  for (const key of Object.keys(value)) {
    if (!TOP_LEVEL_KEYS.includes(key)) {
      issues.push(
        locate(
          document,
          'warning',
          [key],
          `unknown top-level key '${key}' is ignored (did you mean '${closest(key, TOP_LEVEL_KEYS)}'?)`,
          true,
        ),
      );
    }
  }
  if (!validateConfigSchema(value)) issues.push(...schemaIssues(validateConfigSchema.errors, document));
  issues.push(...globIssues(value as Record<string, unknown>, document));
  return issues;
}

/** The config keys whose values are path globs (docs/config.md, "Globs"), as key paths to string lists. */
const PATH_GLOB_KEYS: KeyPath[] = [['server', 'index', 'exclude']];

/**
 * An error for every glob that cannot be compiled, naming the key and the pattern (a typo must not silently match
 * nothing).
 */
function globIssues(value: Record<string, unknown>, document: ConfigDocument | undefined): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const key of PATH_GLOB_KEYS) {
    let list: unknown = value;
    for (const part of key) list = (list as Record<string, unknown> | undefined)?.[part as string];
    if (!Array.isArray(list)) continue;
    list.forEach((pattern, index) => {
      if (typeof pattern !== 'string') return;
      const problem = pathGlobProblem(pattern);
      if (problem)
        issues.push(
          locate(
            document,
            'error',
            [...key, index],
            `invalid glob ${JSON.stringify(pattern)}: ${problem} (glob syntax: docs/config.md, "Globs")`,
          ),
        );
    });
  }
  return issues;
}

/** Validates a config file's text: YAML syntax first, then the schema. */
export function validateConfigText(
  text: string,
  file: string,
): { value: unknown; issues: ConfigIssue[]; document: ConfigDocument } {
  const document = new ConfigDocument(text, file);
  const syntax = document.syntaxIssues();
  if (syntax.length) return { value: undefined, issues: syntax, document };
  let value: unknown;
  try {
    value = document.value();
  } catch (error) {
    // yaml's alias-expansion limit (a bomb with few aliases that each expand a lot).
    return {
      value: undefined,
      issues: [
        {
          severity: 'error',
          path: '(yaml)',
          message: `YAML aliases expand too far, refused as a possible alias bomb (${(error as Error).message})`,
          file,
          ...document.firstAliasPosition(),
        },
      ],
      document,
    };
  }
  return { value, issues: validateConfigValue(value, document), document };
}
