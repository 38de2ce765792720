import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, packedInstall, writeTree, type PackedInstall } from '@agentgov/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';

/**
 * What a user installs is what we test: every workspace packed by npm and the tarballs installed
 * into an empty project, with npm's own layout (no workspace links, no root overrides). The install
 * is made once per set of tarballs (core/testing packedInstall) under the checkout, not /tmp.
 */
describe('the packed install (npm pack --workspaces, installed into an empty project)', function () {
  this.timeout(45 * 60_000);
  let install: PackedInstall;
  let home: string;
  let env: NodeJS.ProcessEnv;

  before(function () {
    install = packedInstall();
    // A home that looks like a real one, beside the install (not under /tmp).
    home = join(install.dir, 'home', 'dev');
    mkdirSync(home, { recursive: true });
    env = isolatedEnv(home, { AGENTGOV_GATE_TRACE: '1' });
  });

  const run = (args: string[], options: { input?: string; cwd?: string } = {}) =>
    spawnSync(install.bin, args, { env, encoding: 'utf8', input: options.input, cwd: options.cwd ?? home });

  it('answers --version from the installed package', () => {
    const result = run(['--version']);
    expect(result.status, result.stderr).to.equal(0);
    const { version } = JSON.parse(readFileSync(join(install.dir, 'node_modules', 'agentgov', 'package.json'), 'utf8'));
    expect(result.stdout.trim()).to.equal(version);
  });

  it('built the native parse addon at install, and the installed server loads it', () => {
    const flatTree = join(install.dir, 'node_modules', '@agentgov', 'flat-tree');
    expect(existsSync(join(flatTree, 'build', 'Release', 'flat_tree.node')), 'node-gyp ran at install').to.equal(true);
    const probe = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { FlatTreeParser } from '@agentgov/flat-tree'; const p = FlatTreeParser.load(); " +
          "console.log(p instanceof Error ? 'unavailable: ' + p.message : 'loaded');",
      ],
      { cwd: join(install.dir, 'node_modules', '@agentgov', 'server'), encoding: 'utf8' },
    );
    expect(probe.stdout.trim(), probe.stderr).to.equal('loaded');
  });

  it('serves the 16 tools to a real MCP client, and recon finds a Python and a TypeScript definition', async () => {
    const repo = join(install.dir, 'home', 'dev', 'project');
    writeTree(repo, {
      'shop/brewing.py': 'def brew_espresso(grams):\n    """Pull one espresso shot."""\n    return grams * 2\n',
      'web/grinder.ts': 'export function grindBeans(grams: number): number {\n  return grams;\n}\n',
    });
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const transport = new StdioClientTransport({
      command: install.bin,
      args: ['serve', '--repo', repo],
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const client = new Client({ name: 'packed-install-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools).to.have.length(16);
      const recon = async (task: string): Promise<string> => {
        for (;;) {
          const result = (await client.callTool({ name: 'recon', arguments: { task } })) as CallToolResult;
          const text = (result.content[0] as { text: string }).text;
          if (!text.includes('E_INDEX_NOT_READY')) return text;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      };
      expect(await recon('brew an espresso shot')).to.include('shop/brewing.py');
      expect(await recon('grind the beans')).to.include('web/grinder.ts');
      // Every file parsed: two copies of tree-sitter in one process made each Python file unparsable.
      expect(stderr).to.not.include('could not be parsed');
    } finally {
      await client.close();
    }
  });

  it('gates from the installed bundle: rm -rf ~ is denied, ls allowed, the bundle is used', () => {
    const call = (command: string) =>
      run(['gate', '--stdin', '--format', 'claude-code'], {
        input: JSON.stringify({ tool_name: 'Bash', tool_input: { command }, session_id: 's1', cwd: home }),
      });
    const denied = call('rm -rf ~');
    expect(denied.status, denied.stderr).to.equal(0);
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).to.equal('deny');
    expect(denied.stderr).to.include('running from the gate bundle');
    const allowed = call('ls');
    expect(allowed.status, allowed.stderr).to.equal(0);
    expect(allowed.stderr).to.include('running from the gate bundle');
    expect(allowed.stdout).to.not.include('"deny"');
  });

  it('init installs a hook (local scope) that runs the installed bin, and the command it wrote denies rm -rf ~', () => {
    const result = run(['init', 'claude-code']);
    expect(result.status, `${result.stdout}\n${result.stderr}`).to.equal(0);
    const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.local.json'), 'utf8'));
    const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
    expect(command).to.include(realpathSync(install.dir));
    // The command string runs as Claude Code runs it: through a shell.
    const hook = spawnSync('/bin/sh', ['-c', command], {
      env,
      encoding: 'utf8',
      input: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, session_id: 's2', cwd: home }),
    });
    expect(hook.status, hook.stderr).to.equal(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).to.equal('deny');
  });
});
