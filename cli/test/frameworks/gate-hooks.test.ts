/**
 * Acceptance of each framework's gate hook, with the real binaries: `init <adapter>` writes the
 * framework's own pre-tool hook; the exact command it wrote, run through `bash -c` with that
 * framework's hook input, blocks `rm -rf ~` in the framework's protocol and grants nothing for
 * `ls` (while `watch` runs). `init` is idempotent and leaves a settings file it cannot parse
 * untouched; `init --mcp` registers `agentgov serve` once.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'chai';
import { parse as parseToml } from 'smol-toml';
import { runCli } from '../support/cli-process.js';
import { startDaemon } from '../support/daemon.js';

type Json = Record<string, unknown>;

interface HookCase {
  adapter: string;
  /** The settings file `init` writes (default scope), relative to the project (or to HOME for a user-scope default). */
  settings: string;
  /** The default scope writes under HOME: the agent ignores the project's file in some of its modes. */
  userScope?: boolean;
  /** The hook command(s) in that file. */
  commands(settings: Json): string[];
  /** The framework's hook input for a shell command. */
  payload(project: string, command: string, n: number): Json;
  /** The decision the framework reads from the hook's answer; undefined when it grants nothing (no decision). */
  decision(stdout: string, exitCode: number | null): string | undefined;
}

const groupCommands = (settings: Json, event: string): string[] =>
  ((settings['hooks'] as Record<string, { hooks: { command: string }[] }[]>)[event] ?? []).flatMap((g) =>
    g.hooks.map((h) => h.command),
  );
const parsed = (stdout: string): Json => (stdout.trim() === '' ? {} : (JSON.parse(stdout) as Json));

const CASES: HookCase[] = [
  {
    adapter: 'claude-code',
    settings: '.claude/settings.local.json',
    commands: (s) => groupCommands(s, 'PreToolUse'),
    payload: (cwd, command, n) => ({
      session_id: 'cc-1',
      transcript_path: join(cwd, 't.jsonl'),
      cwd,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
      tool_use_id: `toolu_${n}`,
    }),
    decision: (stdout) =>
      (parsed(stdout)['hookSpecificOutput'] as Json | undefined)?.['permissionDecision'] as string | undefined,
  },
  {
    adapter: 'codex',
    settings: '.codex/hooks.json',
    commands: (s) => groupCommands(s, 'PreToolUse'),
    payload: (cwd, command, n) => ({
      session_id: 'cx-1',
      transcript_path: null,
      cwd,
      hook_event_name: 'PreToolUse',
      model: 'gpt-5-codex',
      turn_id: '1',
      tool_name: 'Bash',
      tool_use_id: `call_${n}`,
      tool_input: { command },
    }),
    decision: (stdout) =>
      (parsed(stdout)['hookSpecificOutput'] as Json | undefined)?.['permissionDecision'] as string | undefined,
  },
  {
    adapter: 'gemini-cli',
    settings: '.gemini/settings.json',
    userScope: true,
    commands: (s) => groupCommands(s, 'BeforeTool'),
    payload: (cwd, command) => ({
      session_id: 'gm-1',
      transcript_path: '',
      cwd,
      hook_event_name: 'BeforeTool',
      timestamp: new Date().toISOString(),
      tool_name: 'run_shell_command',
      tool_input: { command, description: 'run' },
    }),
    decision: (stdout) => parsed(stdout)['decision'] as string | undefined,
  },
  {
    adapter: 'cursor',
    settings: '.cursor/hooks.json',
    commands: (s) =>
      ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'].flatMap((e) =>
        ((s['hooks'] as Record<string, { command: string }[]>)[e] ?? []).map((h) => h.command),
      ),
    payload: (cwd, command, n) => ({
      conversation_id: 'cu-1',
      generation_id: `g-${n}`,
      hook_event_name: 'beforeShellExecution',
      workspace_roots: [cwd],
      command,
      cwd,
    }),
    decision: (stdout) => parsed(stdout)['permission'] as string | undefined,
  },
  {
    adapter: 'copilot-cli',
    settings: '.copilot/hooks/agentgov.json',
    userScope: true,
    commands: (s) => ((s['hooks'] as Record<string, { bash: string }[]>)['preToolUse'] ?? []).map((h) => h.bash),
    payload: (cwd, command) => ({
      timestamp: Date.now(),
      cwd,
      toolName: 'bash',
      toolArgs: JSON.stringify({ command, description: 'run' }),
    }),
    decision: (stdout) => parsed(stdout)['permissionDecision'] as string | undefined,
  },
];

/** Runs a hook command the way the agent does: `bash -c`, the payload on stdin. */
function runHook(
  command: string,
  payload: Json,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { env, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(JSON.stringify(payload));
  });
}

function makeHome(): { root: string; env: NodeJS.ProcessEnv; project: string } {
  const root = makeTempDir('hooks-');
  mkdirSync(join(root, '.agentgov'), { recursive: true, mode: 0o700 });
  writeFileSync(join(root, '.agentgov', 'config.yaml'), 'score:\n  listen: "127.0.0.1:0"\n');
  const project = join(root, 'project');
  mkdirSync(project);
  return { root, env: isolatedEnv(root), project };
}

describe('framework gate hooks: init writes them, the written command blocks in the framework protocol', function () {
  this.timeout(240000);

  it('for each framework: rm -rf ~ is denied in its protocol, ls is granted nothing, by the exact command init wrote', async () => {
    const home = makeHome();
    const written = new Map<string, string>();
    for (const c of CASES) {
      const init = await runCli(['init', c.adapter, '--project', home.project], { env: home.env, cwd: home.root });
      expect(init.code, `${c.adapter}: ${init.stderr}`).to.equal(0);
      const commands = c.commands(
        JSON.parse(readFileSync(join(c.userScope ? home.root : home.project, c.settings), 'utf8')) as Json,
      );
      expect(new Set(commands).size, `${c.adapter}: one command`).to.equal(1);
      expect(init.stdout, `${c.adapter}: init prints what it wrote`).to.contain(commands[0]!);
      expect(commands[0]).to.match(new RegExp(`gate --stdin --format ${c.adapter}$`));
      written.set(c.adapter, commands[0]!);
    }
    const watch = startDaemon(['watch', '--no-score'], { env: home.env, cwd: home.root });
    try {
      await watch.waitFor(/watching /);
      let n = 0;
      for (const c of CASES) {
        const command = written.get(c.adapter)!;
        const wipe = await runHook(command, c.payload(home.project, 'rm -rf ~', (n += 1)), home.env, home.project);
        expect([0, 2], `${c.adapter}: ${wipe.stderr}`).to.include(wipe.code);
        expect(c.decision(wipe.stdout, wipe.code), `${c.adapter} rm -rf ~: ${wipe.stdout}`).to.equal('deny');
        expect(wipe.stdout, `${c.adapter}: decided by the running pipeline`).to.not.contain('could not get a verdict');
        const list = await runHook(command, c.payload(home.project, 'ls', (n += 1)), home.env, home.project);
        expect(list.code, `${c.adapter}: ${list.stderr}`).to.equal(0);
        expect(c.decision(list.stdout, list.code), `${c.adapter} ls grants nothing: ${list.stdout}`).to.equal(
          undefined,
        );
      }
    } finally {
      expect(await watch.stop('SIGTERM')).to.equal(0);
    }
  });

  for (const c of CASES) {
    it(`init ${c.adapter} is idempotent, keeps other settings, and leaves an unparseable settings file untouched`, async () => {
      const home = makeHome();
      const file = join(c.userScope ? home.root : home.project, c.settings);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ version: 1, theme: 'dark', hooks: {} }));
      expect((await runCli(['init', c.adapter, '--project', home.project], { env: home.env })).code).to.equal(0);
      const first = readFileSync(file, 'utf8');
      expect((JSON.parse(first) as Json)['theme']).to.equal('dark');
      const again = await runCli(['init', c.adapter, '--project', home.project], { env: home.env });
      expect(again.code, again.stderr).to.equal(0);
      expect(again.stdout).to.contain('nothing changed');
      expect(readFileSync(file, 'utf8')).to.equal(first);

      writeFileSync(file, '{ "hooks": ');
      const refused = await runCli(['init', c.adapter, '--project', home.project], { env: home.env });
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.contain('E_SETTINGS_INVALID');
      expect(readFileSync(file, 'utf8')).to.equal('{ "hooks": ');
    });
  }

  it('init --mcp registers agentgov serve once in each framework MCP configuration, and refuses an unparseable one', async () => {
    const home = makeHome();
    const files: Record<string, string> = {
      'agentx-code': '.agentx/settings.json',
      'claude-code': '.mcp.json',
      codex: '.codex/config.toml',
      'gemini-cli': '.gemini/settings.json',
      cursor: '.cursor/mcp.json',
      'copilot-cli': '.github/mcp.json',
    };
    for (const [adapter, relative] of Object.entries(files)) {
      const first = await runCli(['init', adapter, '--mcp', '--scope', 'project', '--project', home.project], {
        env: home.env,
      });
      expect(first.code, `${adapter}: ${first.stderr}`).to.equal(0);
      const text = readFileSync(join(home.project, relative), 'utf8');
      const doc = (relative.endsWith('.toml') ? parseToml(text) : JSON.parse(text)) as Json;
      const server = ((doc['mcpServers'] ?? doc['mcp_servers']) as Record<string, { command: string; args: string[] }>)[
        'agentgov'
      ]!;
      expect(server.args.slice(1)).to.deep.equal(['serve', '--repo', home.project]);
      expect(server.args[0]).to.match(/\/bin\/agentgov\.js$/);
      const again = await runCli(['init', adapter, '--mcp', '--scope', 'project', '--project', home.project], {
        env: home.env,
      });
      expect(again.stdout, adapter).to.contain('nothing changed');
      expect(readFileSync(join(home.project, relative), 'utf8')).to.equal(text);
    }
    writeFileSync(join(home.project, '.mcp.json'), '{ broken');
    const refused = await runCli(['init', 'claude-code', '--mcp', '--project', home.project], { env: home.env });
    expect(refused.code).to.equal(1);
    expect(readFileSync(join(home.project, '.mcp.json'), 'utf8')).to.equal('{ broken');
  });

  it('init agentx-code offers the MCP server; init agentx-code --mcp registers a command the agent can start (MCP initialize + tools/list)', async () => {
    const home = makeHome();
    writeFileSync(join(home.project, 'app.ts'), 'export function hello(): string {\n  return "hi";\n}\n');
    const hook = await runCli(['init', 'agentx-code', '--project', home.project], { env: home.env });
    expect(hook.code, hook.stderr).to.equal(0);
    expect(hook.stdout).to.contain(
      `register the MCP server: agentgov init agentx-code --mcp --project ${home.project}`,
    );
    const registered = await runCli(['init', 'agentx-code', '--mcp', '--project', home.project], { env: home.env });
    expect(registered.code, registered.stderr).to.equal(0);
    const settings = JSON.parse(readFileSync(join(home.project, '.agentx', 'settings.json'), 'utf8')) as Json;
    // the gate hook and the MCP server share the settings file: registering kept the hook
    expect(groupCommands(settings, 'PreToolUse')).to.have.length(1);
    const server = (settings['mcpServers'] as Record<string, { type: string; command: string; args: string[] }>)[
      'agentgov'
    ]!;
    expect(server.type).to.equal('stdio');
    expect(server.args.slice(1)).to.deep.equal(['serve', '--repo', home.project]);
    // started exactly as the agent starts it: the registered command and arguments, from another directory
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      cwd: home.root,
      env: home.env as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const client = new Client({ name: 'agentx-code', version: '0.0.0' });
    await client.connect(transport).catch((error: Error) => {
      throw new Error(`the registered command did not start an MCP server: ${error.message}\n${stderr}`);
    });
    try {
      expect(client.getServerVersion()?.name).to.equal('agentgov');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).to.include.members(['recon_scout', 'recon', 'recon_impact', 'graph_cycles']);
      const described = await client.callTool({ name: 'describe', arguments: { action: 'tool', name: 'recon' } });
      expect(described.isError).to.not.equal(true);
    } finally {
      await client.close();
    }
    const user = await runCli(['init', 'agentx-code', '--mcp', '--scope', 'user', '--project', home.project], {
      env: home.env,
    });
    expect(user.code, user.stderr).to.equal(0);
    const userSettings = JSON.parse(readFileSync(join(home.root, '.agentx', 'settings.json'), 'utf8')) as Json;
    expect((userSettings['mcpServers'] as Record<string, { args: string[] }>)['agentgov']!.args.slice(1)).to.deep.equal(
      ['serve'],
    );
  });
});
