import { dirname, join, resolve } from 'node:path';
import {
  AgentgovError,
  installMatcherGroupHook,
  isJsonObject,
  matcherGroupGateCommands,
  readSettingsText,
  type HookActivationCheck,
  type HookInstaller,
} from '@agentgov/core';
import { parse } from 'smol-toml';
import { findCodexBinary, listCodexHooks } from './app-server.js';
import { codexHome } from './home.js';

/**
 * Codex's hooks.json beside its config layers: `project` = `<project>/.codex/hooks.json`, `user` =
 * `$CODEX_HOME/hooks.json`.
 */
export const SCOPES = ['project', 'user'];

/** The Codex CLI versions this installer's hook locations and trust steps were tested with (e2e/agents). */
export const TESTED_WITH = 'Codex CLI 0.171.0';

export function codexHooksFile(projectDir: string, scope: string, env: NodeJS.ProcessEnv = process.env): string {
  if (scope === 'user') return join(codexHome(env), 'hooks.json');
  if (scope === 'project') return join(projectDir, '.codex', 'hooks.json');
  throw new AgentgovError('E_INVALID_ARGUMENT', `unknown settings scope '${scope}'; codex has ${SCOPES.join(', ')}`, {
    scope,
  });
}

/** `$CODEX_HOME/config.toml` parsed, `{}` when missing; a file that does not parse is reported, not guessed at. */
function userConfig(env: NodeJS.ProcessEnv): { file: string; doc?: Record<string, unknown>; error?: string } {
  const file = join(codexHome(env), 'config.toml');
  const text = readSettingsText(file);
  if (text === undefined) return { file, doc: {} };
  try {
    return { file, doc: parse(text) };
  } catch (error) {
    return { file, error: (error as Error).message.split('\n')[0] };
  }
}

const table = (value: unknown, key: string): Record<string, unknown> => {
  const found = isJsonObject(value) ? value[key] : undefined;
  return isJsonObject(found) ? found : {};
};

/**
 * The `[projects."<dir>"]` entry Codex consults for `projectDir`: the directory itself or the nearest ancestor with
 * one.
 */
function projectTrust(doc: Record<string, unknown>, projectDir: string): { dir: string; level: unknown } | undefined {
  const projects = table(doc, 'projects');
  for (let dir = resolve(projectDir); ; dir = dirname(dir)) {
    const entry = projects[dir];
    if (isJsonObject(entry) && 'trust_level' in entry) return { dir, level: entry['trust_level'] };
    if (dirname(dir) === dir) return undefined;
  }
}

const trustProjectRemedy = (projectDir: string): string =>
  `start \`codex\` in ${projectDir} and answer that you trust this folder (headless: ` +
  `add \`--trust\` to one \`codex exec\` run in it); Codex loads no project ` +
  `config or hooks until then`;
const trustHookRemedy = (projectDir: string, file: string): string =>
  `start \`codex\` in ${projectDir}, type /hooks, review the agentgov PreToolUse ` +
  `hook of ${file} and trust it; Codex runs no hook a person has not reviewed, ` +
  `and asks again whenever the hook changes`;

/**
 * What Codex needs before it calls the hook: the project trusted (project scope: Codex ignores an
 * untrusted project's `.codex/`), hooks not switched off, and the hook itself reviewed and trusted
 * in `/hooks` — read from Codex (`codex app-server` → `hooks/list`), else from its trust records.
 */
async function activation(
  projectDir: string,
  scope: string,
  env: NodeJS.ProcessEnv,
  commands: string[],
): Promise<HookActivationCheck[]> {
  const file = codexHooksFile(projectDir, scope, env);
  const config = userConfig(env);
  const checks: HookActivationCheck[] = [];
  if (!config.doc) {
    return [
      {
        name: 'Codex configuration readable',
        status: 'fail',
        detail: `${config.file} is not valid TOML (${config.error}): Codex will not start with it`,
        remedy: `fix ${config.file}`,
      },
    ];
  }
  const features = table(config.doc, 'features');
  const off = features['hooks'] === false ? 'hooks' : features['codex_hooks'] === false ? 'codex_hooks' : undefined;
  checks.push(
    off
      ? {
          name: 'hooks enabled',
          status: 'fail',
          detail: `${config.file} sets [features] ${off} = false: Codex runs no hook`,
          remedy: `remove \`${off} = false\` from [features] in ${config.file}`,
        }
      : { name: 'hooks enabled', status: 'ok', detail: `${config.file} does not switch hooks off` },
  );
  if (scope === 'project') {
    const trust = projectTrust(config.doc, projectDir);
    checks.push(
      trust?.level === 'trusted'
        ? { name: 'project trusted', status: 'ok', detail: `${config.file} trusts ${trust.dir}` }
        : {
            name: 'project trusted',
            status: 'fail',
            detail: trust
              ? `${config.file} sets ${trust.dir} to trust_level = ${JSON.stringify(trust.level)}`
              : `${config.file} has no trust entry for ${projectDir}: Codex ignores ${file}`,
            remedy: trustProjectRemedy(projectDir),
          },
    );
  }
  checks.push(await hookTrust(projectDir, file, env, config.doc, commands));
  return checks;
}

async function hookTrust(
  projectDir: string,
  file: string,
  env: NodeJS.ProcessEnv,
  doc: Record<string, unknown>,
  commands: string[],
): Promise<HookActivationCheck> {
  const name = 'hook reviewed and trusted in Codex';
  const remedy = trustHookRemedy(projectDir, file);
  const codex = findCodexBinary(env);
  if (codex) {
    try {
      const listed = await listCodexHooks(codex, projectDir, env);
      const ours = listed.hooks.filter(
        (h) => h.sourcePath === file && h.eventName === 'preToolUse' && commands.includes(h.command ?? ''),
      );
      if (ours.length === 0) {
        const why =
          listed.warnings.find((w) => w.includes(projectDir)) ?? listed.errors.map((e) => e.message).join('; ');
        return {
          name,
          status: 'fail',
          detail:
            `Codex (${codex} app-server, hooks/list) does not load the agentgov hook ` +
            `of ${file}${why ? `: ${why.split('\n')[0]}` : ''}`,
          remedy,
        };
      }
      const untrusted = ours.filter((h) => !h.enabled || (h.trustStatus !== 'trusted' && h.trustStatus !== 'managed'));
      if (untrusted.length === 0)
        return {
          name,
          status: 'ok',
          detail: `Codex lists the agentgov hook of ${file} as ${ours.map((h) => h.trustStatus).join(', ')}`,
        };
      return {
        name,
        status: 'fail',
        detail:
          `Codex lists the agentgov hook of ${file} as ` +
          `${untrusted.map((h) => (h.enabled ? h.trustStatus : 'disabled')).join(', ')}: ` +
          `it will not run`,
        remedy,
      };
    } catch (error) {
      return { name, status: 'unknown', detail: `could not ask Codex: ${(error as Error).message}`, remedy };
    }
  }
  // No codex on PATH: Codex's trust records say whether anything was trusted, but not for this hook's current hash.
  const state = table(table(doc, 'hooks'), 'state');
  const recorded = Object.entries(state).filter(
    ([key, value]) =>
      key.startsWith(`${file}:pre_tool_use:`) && isJsonObject(value) && typeof value['trusted_hash'] === 'string',
  );
  if (recorded.length === 0)
    return {
      name,
      status: 'fail',
      detail:
        `no \`codex\` on PATH to ask, and ${join(codexHome(env), 'config.toml')} ` +
        `records no trusted PreToolUse hook of ` +
        `${file}`,
      remedy,
    };
  return {
    name,
    status: 'unknown',
    detail: `no \`codex\` on PATH to ask whether the trust recorded for ${file} matches the hook as it is now`,
    remedy,
  };
}

/**
 * `hooks.PreToolUse: [{hooks: [{type: "command", command}]}]` — no matcher, so every tool call
 * (shell, apply_patch, MCP) reaches the gate. Codex runs a new command hook only once it has been
 * reviewed and trusted (`/hooks`), and a project's hooks only in a trusted project: `activation`.
 */
export const codexHookInstaller: HookInstaller = {
  agent: 'codex',
  format: 'codex',
  scopes: SCOPES,
  testedWith: TESTED_WITH,
  async install(projectDir, gateCommand, options = {}) {
    const settingsFile = codexHooksFile(projectDir, options.scope ?? SCOPES[0]!, options.env);
    return { ...installMatcherGroupHook(settingsFile, { event: 'PreToolUse' }, gateCommand), settingsFile };
  },
  async installed(projectDir, options = {}) {
    const settingsFile = codexHooksFile(projectDir, options.scope ?? SCOPES[0]!, options.env);
    return { settingsFile, commands: matcherGroupGateCommands(settingsFile, 'PreToolUse') };
  },
  async activation(projectDir, options = {}) {
    const scope = options.scope ?? SCOPES[0]!;
    const env = options.env ?? process.env;
    return activation(
      resolve(projectDir),
      scope,
      env,
      matcherGroupGateCommands(codexHooksFile(projectDir, scope, env), 'PreToolUse'),
    );
  },
};
