import type { CanonicalTool, RiskAction, ToolCallEvent } from '@agentgov/core';
import { expect } from 'chai';
import { createRiskEngine, type RiskEngine } from '../../src/risk/engine.js';

const HOME = '/home/dev';
const PROJECT = '/home/dev/proj';

function fileEvent(tool: CanonicalTool, args: Record<string, unknown>, cwd = PROJECT): ToolCallEvent {
  return {
    id: 't:s:2',
    framework: 'test',
    session_id: 's',
    timestamp: '2026-11-22T00:00:00Z',
    cwd,
    tool_name: tool,
    canonical_tool: tool,
    arguments: args,
  };
}

/** [tool, path, expected action, expected reason_code] with the project root /home/dev/proj. */
const TABLE: Array<[CanonicalTool, string, RiskAction, string]> = [
  ['read', 'src/app.ts', 'allow', 'no_risk_detected'],
  ['read', '/home/dev/proj/README.md', 'allow', 'no_risk_detected'],
  ['read', '.env.example', 'allow', 'no_risk_detected'],
  ['read', '.env', 'ask', 'secret_access'],
  ['read', '/home/dev/proj/config/.env.production', 'ask', 'secret_access'],
  ['read', '~/.ssh/id_rsa', 'ask', 'secret_access'],
  ['read', '/home/dev/.ssh/id_ed25519', 'ask', 'secret_access'],
  ['read', '/home/dev/.aws/credentials', 'ask', 'secret_access'],
  ['read', '/home/dev/.kube/config', 'ask', 'secret_access'],
  ['read', '/home/dev/.config/gcloud/application_default_credentials.json', 'ask', 'secret_access'],
  ['read', '/etc/shadow', 'ask', 'secret_access'],
  ['read', '/proc/1/environ', 'ask', 'secret_access'],
  ['read', '/etc/hosts', 'warn', 'read_outside_project'],
  ['read', '/home/dev/other/notes.md', 'warn', 'read_outside_project'],
  ['read', '/tmp/build.log', 'allow', 'no_risk_detected'],
  ['search', 'src', 'allow', 'no_risk_detected'],
  ['write', 'src/new.ts', 'allow', 'no_risk_detected'],
  ['edit', '/home/dev/proj/src/app.ts', 'allow', 'no_risk_detected'],
  ['write', '/tmp/scratch.txt', 'allow', 'no_risk_detected'],
  ['write', '/etc/hosts', 'deny', 'system_path_write'],
  ['edit', '/usr/local/bin/tool', 'deny', 'system_path_write'],
  ['write', '/home/dev/.bashrc', 'ask', 'persistence'],
  ['edit', '~/.zshrc', 'ask', 'persistence'],
  ['write', '/home/dev/Library/LaunchAgents/x.plist', 'ask', 'persistence'],
  ['write', '.env', 'ask', 'secret_access'],
  ['write', '../other/src/x.ts', 'ask', 'write_outside_project'],
  ['edit', '/home/dev/notes.md', 'ask', 'write_outside_project'],
];

describe('risk engine: file tools are judged by path', function () {
  let engine: RiskEngine;
  before(async function () {
    engine = await createRiskEngine({ home: HOME });
  });
  for (const [tool, filePath, action, reason] of TABLE) {
    it(`${tool} ${filePath} → ${action} / ${reason}`, function () {
      const result = engine.assess(fileEvent(tool, { file_path: filePath }));
      expect({ action: result.action, reason_code: result.reason_code }, JSON.stringify(result.evidence)).to.deep.equal(
        { action, reason_code: reason },
      );
      expect(result.evidence.paths?.[0]).to.include(filePath);
    });
  }

  it('accepts `path` and `notebook_path` as the path key too', function () {
    expect(engine.assess(fileEvent('read', { path: '~/.ssh/id_rsa' })).reason_code).to.equal('secret_access');
    expect(engine.assess(fileEvent('edit', { notebook_path: '/etc/passwd' })).reason_code).to.equal(
      'system_path_write',
    );
  });

  // Allowed before: a write whose path was under a key we did not read was "nothing to check".
  it('a write tool without any path it can read asks, and says the arguments were unreadable', function () {
    const result = engine.assess(fileEvent('write', { content: 'x' }));
    expect(result).to.include({ action: 'ask', reason_code: 'invalid_arguments' });
    expect(result.evidence.factors?.join(' ')).to.match(/no file path/);
    expect(engine.assess(fileEvent('search', { pattern: 'x' })).action).to.equal('allow');
  });

  it('a file tool naming its path by another key (file, target, dest) is judged by it', function () {
    expect(engine.assess(fileEvent('write', { file: '~/.bashrc', content: 'x' })).reason_code).to.equal('persistence');
    expect(engine.assess(fileEvent('read', { target: '~/.ssh/id_rsa' })).reason_code).to.equal('secret_access');
  });

  it('relative paths without a project root are not assumed to be inside it', function () {
    const result = engine.assess(fileEvent('write', { file_path: 'src/x.ts' }, ''));
    expect(result.reason_code).to.equal('write_outside_project');
    expect(result.evidence.factors?.join(' ')).to.match(/no absolute project root/);
  });

  it('tool kinds without rules answer no_risk_detected and say why', function () {
    const result = engine.assess(fileEvent('mcp', { anything: 1 }));
    expect(result).to.include({ action: 'allow', reason_code: 'no_risk_detected', score: 0 });
    expect(result.evidence.factors?.join(' ')).to.match(/has no risk rules/);
  });
});
