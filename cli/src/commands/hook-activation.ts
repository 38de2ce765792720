/**
 * What `init` and `doctor` say about an agent's own conditions for calling an installed hook
 * (`HookInstaller.activation`): the hook file where this agent version reads it, its trust state for
 * the project and the hook, opt-in variables. Only every check `ok` makes a hook active.
 */
import type { HookActivationCheck, HookInstaller } from '@agentgov/core';

export interface ActivationReport {
  /** `active`: every check ok; `inactive`: one fails; `unverified`: none fails, one could not be read or none exist. */
  state: 'active' | 'inactive' | 'unverified';
  checks: HookActivationCheck[];
}

/** Runs the installer's activation checks; a check that throws is reported as `unknown`, never as ok. */
export async function checkActivation(
  installer: HookInstaller,
  projectDir: string,
  scope: string,
  env: NodeJS.ProcessEnv,
): Promise<ActivationReport> {
  if (!installer.activation) {
    const detail = `the ${installer.agent} plugin does not say what ${installer.agent} needs before it calls a hook`;
    return { state: 'unverified', checks: [{ name: 'agent conditions', status: 'unknown', detail }] };
  }
  let checks: HookActivationCheck[];
  try {
    checks = await installer.activation(projectDir, { scope, env });
  } catch (error) {
    checks = [
      {
        name: 'agent conditions',
        status: 'unknown',
        detail: `the ${installer.agent} activation check failed: ${(error as Error).message}`,
      },
    ];
  }
  const state = checks.some((c) => c.status === 'fail')
    ? 'inactive'
    : checks.length > 0 && checks.every((c) => c.status === 'ok')
      ? 'active'
      : 'unverified';
  return { state, checks };
}

const LABEL = { ok: 'ok', fail: 'FAIL', unknown: '??' } as const;

/** One line per check (`ok`/`FAIL`/`??`, name, what was found), the remedy under each that is not ok. */
export function activationLines(report: ActivationReport, indent = '  '): string {
  return report.checks
    .map(
      (c) =>
        `${indent}${LABEL[c.status].padEnd(4)} ` +
        `${c.name}: ${c.detail}\n${c.status !== 'ok' && c.remedy ? `${indent}     → ${c.remedy}\n` : ''}`,
    )
    .join('');
}

/** The steps still to take, numbered, for `init`. */
export function remainingSteps(report: ActivationReport): string {
  return report.checks
    .filter((c) => c.status !== 'ok')
    .map(
      (c, i) =>
        `  ${i + 1}. ${c.remedy ?? `check by hand: ${c.name}`}\n     (` +
        `${c.status === 'fail' ? '' : 'could not be verified: '}` +
        `${c.detail})\n`,
    )
    .join('');
}
