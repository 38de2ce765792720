import type { ToolCallEvent } from '@agentgov/core';
import { expect } from 'chai';
import { createRiskEngine, type RiskEngine } from '../../src/risk/engine.js';
import { projectRootOf } from '../../src/risk/paths.js';

/**
 * Paths are judged against the project root (issue 16, finding 4): inside the project is the
 * project's wherever it lives (a container's /root/app, /opt/app, /srv, /var/www), while the home
 * directory's secrets, /etc and the rest of the system stay protected. Home is /root here, as in
 * a container run as root.
 */
function event(cwd: string, tool: string, args: Record<string, unknown>): ToolCallEvent {
  return {
    id: 't:s:1',
    framework: 'test',
    session_id: 's',
    timestamp: '2026-11-22T00:00:00Z',
    cwd,
    tool_name: tool,
    canonical_tool: tool as ToolCallEvent['canonical_tool'],
    arguments: args,
  };
}

describe('risk engine: the project root, wherever it lives', function () {
  let engine: RiskEngine;
  before(async function () {
    engine = await createRiskEngine({ home: '/root' });
  });

  const routine: Array<[string, string, Record<string, unknown>]> = [
    ['/root/app', 'shell', { command: 'rm -rf node_modules' }],
    ['/root/app', 'shell', { command: 'rm -rf ./dist build coverage' }],
    ['/opt/app', 'shell', { command: 'rm -rf node_modules && npm ci' }],
    ['/srv/site', 'shell', { command: 'rm -rf .cache public' }],
    ['/var/www/app', 'shell', { command: 'rm -rf vendor' }],
    ['/usr/src/app', 'shell', { command: 'rm -rf node_modules' }],
    ['/opt/app', 'shell', { command: 'chmod -R 755 bin' }],
    ['/opt/app', 'write', { file_path: '/opt/app/src/index.ts' }],
    ['/root/app', 'edit', { file_path: 'src/a.ts' }],
    ['/var/www/app', 'write', { file_path: 'config/app.php' }],
  ];
  for (const [cwd, tool, args] of routine) {
    it(`in ${cwd}: ${tool} ${JSON.stringify(args)} is routine`, function () {
      const result = engine.assess(event(cwd, tool, args));
      expect(result.action, JSON.stringify(result.evidence)).to.be.oneOf(['allow', 'warn']);
    });
  }

  const protectedCases: Array<[string, string, Record<string, unknown>, string]> = [
    ['/root/app', 'shell', { command: 'rm -rf ~' }, 'destructive_delete_critical'],
    ['/root/app', 'shell', { command: 'rm -rf ..' }, 'destructive_delete_critical'],
    ['/root/app', 'shell', { command: 'cat ~/.ssh/id_rsa' }, 'secret_access'],
    ['/root/app', 'read', { file_path: '/root/.aws/credentials' }, 'secret_access'],
    ['/root/app', 'write', { file_path: '/etc/hosts' }, 'system_path_write'],
    ['/root/app', 'shell', { command: 'echo "alias ls=x" >> ~/.bashrc' }, 'system_path_write'],
    ['/opt/app', 'shell', { command: 'rm -rf /opt/other' }, 'destructive_delete_critical'],
    ['/opt/app', 'shell', { command: 'rm -rf /opt' }, 'destructive_delete_critical'],
    ['/var/www/app', 'write', { file_path: '/var/www/app/.env' }, 'secret_access'],
    // A top-level or system directory is never a project: nothing is "inside" it.
    ['/etc', 'shell', { command: 'rm -rf nginx' }, 'destructive_delete_critical'],
    ['/etc/nginx', 'write', { file_path: 'nginx.conf' }, 'system_path_write'],
    ['/opt', 'shell', { command: 'rm -rf app' }, 'destructive_delete_critical'],
    ['/usr/lib/node_modules', 'shell', { command: 'rm -rf npm' }, 'destructive_delete_critical'],
  ];
  for (const [cwd, tool, args, code] of protectedCases) {
    it(`in ${cwd}: ${tool} ${JSON.stringify(args)} stays ${code}`, function () {
      const result = engine.assess(event(cwd, tool, args));
      expect(result.action).to.be.oneOf(['ask', 'deny']);
      expect(result.reason_code).to.equal(code);
    });
  }

  it('projectRootOf: which cwds are projects', function () {
    expect(projectRootOf('/root/app', '/root')).to.equal('/root/app');
    expect(projectRootOf('/opt/app', '/root')).to.equal('/opt/app');
    expect(projectRootOf('/var/www/app', '/root')).to.equal('/var/www/app');
    for (const cwd of ['/', '/root', '/opt', '/srv', '/var', '/etc/nginx', '/usr/lib/x', '/var/lib/docker', '/proc/1'])
      expect(projectRootOf(cwd, '/root'), cwd).to.equal(null);
    expect(projectRootOf(null, '/root')).to.equal(null);
  });
});
