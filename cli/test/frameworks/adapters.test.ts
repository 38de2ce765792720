/**
 * The five framework adapters through the real CLI: `replay` of each adapter's fixture captures
 * (exact event counts, skip counts, canonical tools, the session cwd, the risk engine reading the
 * normalised command), and one `watch` following all five while each capture grows.
 */
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { runCli } from '../support/cli-process.js';
import { startDaemon } from '../support/daemon.js';

const require = createRequire(import.meta.url);
const fixtures = (pkg: string): string =>
  join(dirname(require.resolve(`@agentgov/plugin-framework-${pkg}/package.json`)), 'test', 'fixtures');

interface Case {
  adapter: string;
  /** Fixture directory replayed, relative to the package's test/fixtures. */
  captures: string;
  /** Where the framework keeps those captures, relative to HOME (for watch). */
  installedAt: string;
  files: number;
  events: number;
  skipped: string;
  tools: string[];
  cwd: string;
  /** One more tool call in the framework's format (a line to append to `appendTo`). */
  appendTo: string;
  newLine: string;
}

const CASES: Case[] = [
  {
    adapter: 'claude-code',
    captures: 'claude-home/projects',
    installedAt: '.claude/projects',
    files: 1,
    events: 7,
    skipped: 'skipped: 3 (malformed_json: 1, unknown_block_type: 1, unknown_line_type: 1)',
    tools: ['shell', 'read', 'edit', 'mcp', 'fetch', 'search', 'shell'],
    cwd: '/work/shop',
    appendTo: '-work-shop/7d3c2a10-5b1e-4c9a-9f00-1a2b3c4d5e6f.jsonl',
    newLine: JSON.stringify({
      type: 'assistant',
      sessionId: '7d3c2a10-5b1e-4c9a-9f00-1a2b3c4d5e6f',
      timestamp: '2026-11-21T09:01:00.000Z',
      cwd: '/work/shop',
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_99', name: 'Bash', input: { command: 'git status' } }],
      },
    }),
  },
  {
    adapter: 'codex',
    captures: 'codex-home/sessions',
    installedAt: '.codex/sessions',
    files: 1,
    events: 5,
    skipped: 'skipped: 3 (malformed_json: 1, unknown_item_type: 1, unknown_line_type: 1)',
    tools: ['shell', 'shell', 'edit', 'mcp', 'shell'],
    cwd: '/work/api',
    appendTo: '2026/11/21/rollout-2026-11-21T10-00-00-0199a0c4-7e21-7b30-9c1d-5e6f7a8b9c0d.jsonl',
    newLine: JSON.stringify({
      timestamp: '2026-11-21T10:01:00.000Z',
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['git', 'status'] }),
        call_id: 'call_k99',
      },
    }),
  },
  {
    adapter: 'gemini-cli',
    captures: 'gemini-home/.gemini/tmp',
    installedAt: '.gemini/tmp',
    files: 2,
    events: 7,
    skipped: 'skipped: 3 (malformed_json: 1, unknown_message_type: 1, unknown_record: 1)',
    tools: ['write', 'shell', 'read', 'edit', 'mcp', 'fetch', 'shell'],
    cwd: '/work/webshop',
    appendTo: 'webshop/chats/session-2026-11-21T11-00-7e3f0a12.jsonl',
    newLine: JSON.stringify({
      id: 'm99',
      timestamp: '2026-11-21T11:01:00.000Z',
      type: 'gemini',
      content: '',
      toolCalls: [
        {
          id: 'run_shell_command-99',
          name: 'run_shell_command',
          args: { command: 'git status' },
          status: 'executing',
          timestamp: '2026-11-21T11:01:00.000Z',
        },
      ],
    }),
  },
  {
    adapter: 'cursor',
    captures: 'cursor-home/.cursor/projects',
    installedAt: '.cursor/projects',
    files: 2,
    events: 8,
    skipped: 'skipped: 3 (malformed_json: 1, unknown_block_type: 1, unknown_line_type: 1)',
    tools: ['shell', 'read', 'edit', 'mcp', 'search', 'fetch', 'shell', 'search'],
    cwd: '/work/studio',
    appendTo:
      'work-studio/agent-transcripts/9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d/9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d.jsonl',
    newLine: JSON.stringify({
      role: 'assistant',
      message: {
        content: [
          { type: 'tool_use', name: 'Shell', input: { command: 'git status', working_directory: '/work/studio' } },
        ],
      },
    }),
  },
  {
    adapter: 'copilot-cli',
    captures: 'copilot-home/session-state',
    installedAt: '.copilot/session-state',
    files: 1,
    events: 6,
    skipped: 'skipped: 3 (malformed_json: 1, unknown_event_type: 2)',
    tools: ['shell', 'read', 'edit', 'mcp', 'fetch', 'shell'],
    cwd: '/work/notes',
    appendTo: '5c1d9e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f/events.jsonl',
    newLine: JSON.stringify({
      type: 'tool.execution_start',
      data: { toolCallId: 'tc_99', toolName: 'bash', arguments: { command: 'git status' } },
      id: 'e-99',
      timestamp: '2026-11-21T12:01:00.000Z',
      parentId: null,
    }),
  },
];

interface JsonlRecord {
  event: { id: string; framework: string; cwd: string; canonical_tool: string; arguments: Record<string, unknown> };
  assessment: { action: string };
}

const PACKAGES: Record<string, string> = {
  'claude-code': 'claude-code',
  codex: 'codex',
  'gemini-cli': 'gemini-cli',
  cursor: 'cursor',
  'copilot-cli': 'copilot-cli',
};

describe('framework adapters through the CLI', function () {
  this.timeout(180000);

  for (const c of CASES) {
    it(`replay --adapter ${c.adapter}: ${c.events} events with their canonical tools, skips counted, rm -rf ~ denied`, async () => {
      const home = makeTempDir();
      const output = join(home, 'records.jsonl');
      const captures = join(fixtures(PACKAGES[c.adapter]!), c.captures);
      const result = await runCli(['replay', captures, '--adapter', c.adapter, '--output', output], {
        env: isolatedEnv(home),
      });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stderr).to.contain(
        `replayed ${c.files} file(s) with ${c.adapter}: ${c.events} new event(s), 0 already recorded`,
      );
      expect(result.stderr).to.contain(c.skipped);
      const records = readFileSync(output, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as JsonlRecord);
      expect(records.map((r) => r.event.canonical_tool)).to.deep.equal(c.tools);
      expect(records.every((r) => r.event.framework === c.adapter)).to.equal(true);
      expect(records.some((r) => r.event.cwd === c.cwd)).to.equal(true);
      const wipe = records.filter((r) => r.event.arguments['command'] === 'rm -rf ~');
      expect(wipe.map((r) => r.assessment.action)).to.deep.equal(['deny']);
      const again = await runCli(['replay', captures, '--adapter', c.adapter], { env: isolatedEnv(home) });
      expect(again.stderr, 'ids are stable: a second replay records nothing new').to.contain(
        `: 0 new event(s), ${c.events} already recorded`,
      );
    });
  }

  it('watch follows all five frameworks installed under HOME and picks up a call appended to each capture', async () => {
    const home = makeTempDir('watch-five-');
    const agentgov = join(home, '.agentgov');
    mkdirSync(agentgov, { recursive: true, mode: 0o700 });
    writeFileSync(join(agentgov, 'config.yaml'), 'score:\n  listen: "127.0.0.1:0"\n');
    for (const c of CASES) {
      mkdirSync(dirname(join(home, c.installedAt)), { recursive: true });
      cpSync(join(fixtures(PACKAGES[c.adapter]!), c.captures), join(home, c.installedAt), { recursive: true });
    }
    const env = isolatedEnv(home);
    const detected = await runCli(['detect', '--json-output'], { env });
    expect((JSON.parse(detected.stdout) as { name: string }[]).map((d) => d.name)).to.include.members(
      CASES.map((c) => c.adapter),
    );

    const count = (): Record<string, number> => {
      const db = new Database(join(agentgov, 'system.db'), { readonly: true });
      try {
        const rows = db.prepare('select framework, count(*) as n from events group by framework').all() as {
          framework: string;
          n: number;
        }[];
        return Object.fromEntries(rows.map((r) => [r.framework, r.n]));
      } finally {
        db.close();
      }
    };
    const waitFor = async (expected: Record<string, number>): Promise<Record<string, number>> => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        let seen: Record<string, number> = {};
        try {
          seen = count();
        } catch {
          // the database is created by the first write
        }
        if (CASES.every((c) => seen[c.adapter] === expected[c.adapter]) || Date.now() > deadline) return seen;
        await new Promise((r) => setTimeout(r, 200));
      }
    };

    const watch = startDaemon(['watch', '--no-score', '--frameworks', CASES.map((c) => c.adapter).join(',')], {
      env,
      cwd: home,
    });
    try {
      await watch.waitFor(/watching /);
      const initial = Object.fromEntries(CASES.map((c) => [c.adapter, c.events]));
      expect(await waitFor(initial)).to.deep.include(initial);
      for (const c of CASES) appendFileSync(join(home, c.installedAt, c.appendTo), `${c.newLine}\n`);
      const grown = Object.fromEntries(CASES.map((c) => [c.adapter, c.events + 1]));
      expect(await waitFor(grown)).to.deep.include(grown);
    } finally {
      expect(await watch.stop('SIGTERM')).to.equal(0);
    }
  });
});
