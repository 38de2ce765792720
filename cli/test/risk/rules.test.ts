import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolCallEvent } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { createRiskEngine } from '../../src/risk/engine.js';

function event(command: string): ToolCallEvent {
  return {
    id: 't:s:4',
    framework: 'test',
    session_id: 's',
    timestamp: '2026-11-22T00:00:00Z',
    cwd: '/home/dev/proj',
    tool_name: 'Bash',
    canonical_tool: 'shell',
    arguments: { command },
  };
}

describe('risk rules: extra files and plugin sources', function () {
  it('an extra YAML file from config adds rules and path classes', async function () {
    const dir = makeTempDir();
    const file = path.join(dir, 'team.yaml');
    writeFileSync(
      file,
      [
        'version: 1',
        'path_classes:',
        '  prod_config:',
        "    - '^/srv/prod/'",
        'rules:',
        '  - id: team.no-git-add-all',
        '    reason_code: team_policy',
        '    score: 55',
        '    match:',
        '      command: git',
        '      subcommand: add',
        '      flags_any: [-A, --all]',
        '  - id: team.prod-config',
        '    reason_code: team_policy',
        '    score: 80',
        '    match:',
        '      targets: [prod_config]',
      ].join('\n'),
    );
    const engine = await createRiskEngine({ home: '/home/dev', extraRuleFiles: [file] });
    expect(engine.ruleFiles).to.include(file);
    expect(engine.assess(event('git add -A'))).to.include({ action: 'ask', reason_code: 'team_policy' });
    expect(engine.assess(event('git add src/x.ts'))).to.include({ action: 'allow' });
    expect(engine.assess(event('cat /srv/prod/db.yaml'))).to.include({ action: 'deny', reason_code: 'team_policy' });
  });

  it('riskRules sources contribute rule objects and files', async function () {
    const dir = makeTempDir();
    const file = path.join(dir, 'plugin.yaml');
    writeFileSync(
      file,
      'rules:\n  - id: plugin.no-terraform-apply\n    reason_code: infrastructure_destroy\n    score: 60\n    match: { command: terraform, subcommand: apply }\n',
    );
    const engine = await createRiskEngine({
      home: '/home/dev',
      sources: [
        {
          name: 'objects',
          rules: [
            {
              id: 'plugin.make-deploy',
              reason_code: 'team_policy',
              score: 50,
              action: 'deny',
              match: { command: 'make', subcommand: 'deploy' },
            },
          ],
        },
        { name: 'file', file },
      ],
    });
    expect(engine.assess(event('make deploy'))).to.include({
      action: 'deny',
      reason_code: 'team_policy',
      score: 50,
      level: 'high',
    });
    expect(engine.assess(event('terraform apply'))).to.include({
      action: 'ask',
      reason_code: 'infrastructure_destroy',
    });
    expect(engine.ruleFiles).to.include(file);
  });

  it('a rule with an explicit action can lower what its score implies', async function () {
    const engine = await createRiskEngine({
      home: '/home/dev',
      sources: [
        {
          name: 'lenient',
          rules: [
            {
              id: 'lenient.reboot',
              reason_code: 'system_power',
              score: 80,
              action: 'ask',
              match: { command: 'my-reboot' },
            },
          ],
        },
      ],
    });
    expect(engine.assess(event('my-reboot'))).to.include({ action: 'ask', level: 'critical' });
  });

  const invalid: Array<[string, string, RegExp]> = [
    [
      'an unknown match key',
      'rules:\n  - id: x.y\n    reason_code: a\n    score: 5\n    match: { comand: rm }\n',
      /must NOT have additional properties/,
    ],
    [
      'a score above 100',
      'rules:\n  - id: x.y\n    reason_code: a\n    score: 150\n    match: { command: rm }\n',
      /score must be <= 100/,
    ],
    [
      'a bad regular expression',
      "rules:\n  - id: x.y\n    reason_code: a\n    score: 5\n    match: { args_regex: ['(('] }\n",
      /must match format "regex"/,
    ],
    [
      'a missing id',
      'rules:\n  - reason_code: a\n    score: 5\n    match: { command: rm }\n',
      /must have required property 'id'/,
    ],
    ['invalid YAML', 'rules: [\n', /not valid YAML/],
  ];
  for (const [what, text, message] of invalid) {
    it(`rejects a rules file with ${what}, naming the file`, async function () {
      const file = path.join(makeTempDir(), 'bad.yaml');
      writeFileSync(file, text);
      let error: unknown;
      await createRiskEngine({ extraRuleFiles: [file] }).catch((e: unknown) => (error = e));
      expect(error).to.have.property('code', 'E_CONFIG_INVALID');
      expect((error as Error).message)
        .to.include(file)
        .and.match(message);
    });
  }

  it('rejects a duplicate rule id and a missing file', async function () {
    let error: unknown;
    await createRiskEngine({
      sources: [
        { name: 'dup', rules: [{ id: 'git.reset-hard', reason_code: 'a', score: 1, match: { command: 'x' } }] },
      ],
    }).catch((e: unknown) => (error = e));
    expect((error as Error).message).to.match(/already defined/);
    error = undefined;
    await createRiskEngine({ extraRuleFiles: ['/nonexistent/rules.yaml'] }).catch((e: unknown) => (error = e));
    expect(error).to.have.property('code', 'E_CONFIG_INVALID');
    expect((error as Error).message).to.match(/cannot be read/);
  });
});

describe('risk rules: from a CLI host (config risk.rules + riskRules plugin)', function () {
  it('createRiskEngineForHost loads config rule files relative to the config and plugin sources', async function () {
    const { writeTree } = await import('@agentgov/core/testing');
    const { silentLogger } = await import('@agentgov/core');
    const { startCliHost } = await import('../../src/host.js');
    const { createRiskEngineForHost } = await import('../../src/risk/engine.js');
    const dir = makeTempDir();
    writeTree(dir, {
      'agentgov.yaml': 'plugins:\n  - ./risk-plugin.mjs\nrisk:\n  rules: [./rules/team.yaml]\n',
      'rules/team.yaml':
        'rules:\n  - id: team.deploy\n    reason_code: team_policy\n    score: 60\n    match: { command: make, subcommand: deploy }\n',
      'risk-plugin.mjs': [
        'export default {',
        "  name: 'risk-plugin-test',",
        '  apply(hooks) {',
        "    hooks.riskRules.tap('risk-plugin-test', (registry) => registry.add({ name: 'objects', rules: [{ id: 'plugin.release', reason_code: 'package_publish', score: 80, match: { command: 'release-it' } }] }));",
        '  },',
        '};',
      ].join('\n'),
    });
    const { loaded, host } = await startCliHost(
      { configPath: path.join(dir, 'agentgov.yaml'), cwd: dir },
      silentLogger,
    );
    const engine = await createRiskEngineForHost(loaded, host, { home: '/home/dev' });
    expect(engine.ruleFiles).to.include(path.join(dir, 'rules/team.yaml'));
    expect(engine.assess(event('make deploy'))).to.include({ action: 'ask', reason_code: 'team_policy' });
    expect(engine.assess(event('npx release-it'))).to.include({ action: 'deny', reason_code: 'package_publish' });
  });
});
