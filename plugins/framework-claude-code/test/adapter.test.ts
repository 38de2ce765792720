import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { claudeCodeAdapter, eventId } from '../src/index.js';

const FIXTURE_HOME = fileURLToPath(new URL('../../test/fixtures/claude-home/', import.meta.url));
const SESSION = '7d3c2a10-5b1e-4c9a-9f00-1a2b3c4d5e6f';
const CAPTURE = join(FIXTURE_HOME, 'projects', '-work-shop', `${SESSION}.jsonl`);

describe('claude-code adapter', () => {
  it('detects ~/.claude/projects by default and $CLAUDE_CONFIG_DIR when set, nothing otherwise', async () => {
    const home = makeTempDir();
    expect(await claudeCodeAdapter.detect({ HOME: home })).to.equal(null);
    mkdirSync(join(home, '.claude', 'projects'), { recursive: true });
    expect(await claudeCodeAdapter.detect({ HOME: home })).to.deep.equal({
      name: 'claude-code',
      path: join(home, '.claude'),
      adapter: 'claude-code',
      ingestion_mode: 'tail',
    });
    const custom = makeTempDir();
    expect(await claudeCodeAdapter.detect({ HOME: home, CLAUDE_CONFIG_DIR: custom })).to.equal(null);
    mkdirSync(join(custom, 'projects'));
    expect((await claudeCodeAdapter.detect({ HOME: home, CLAUDE_CONFIG_DIR: custom }))?.path).to.equal(custom);
    expect(claudeCodeAdapter.captureRoots({ CLAUDE_CONFIG_DIR: custom })).to.deep.equal([join(custom, 'projects')]);
  });

  it('lists the transcripts under projects/', async () => {
    expect(await claudeCodeAdapter.listCaptures({ CLAUDE_CONFIG_DIR: FIXTURE_HOME })).to.deep.equal([CAPTURE]);
  });

  it('turns every tool_use into an event with its result, the line cwd and timestamp, and the canonical tool', () => {
    const parsed = claudeCodeAdapter.parse(readFileSync(CAPTURE, 'utf8'), { file: CAPTURE });
    expect(parsed.events.map((e) => [e.tool_name, e.canonical_tool])).to.deep.equal([
      ['Bash', 'shell'],
      ['Read', 'read'],
      ['Edit', 'edit'],
      ['mcp__github__create_issue', 'mcp'],
      ['WebFetch', 'fetch'],
      ['Grep', 'search'],
      ['Bash', 'shell'],
    ]);
    expect(parsed.events[0]).to.deep.equal({
      id: eventId(SESSION, 'toolu_01A'),
      framework: 'claude-code',
      session_id: SESSION,
      timestamp: '2026-11-21T09:00:02.000Z',
      cwd: '/work/shop',
      tool_name: 'Bash',
      canonical_tool: 'shell',
      arguments: { command: 'ls -la dist', description: 'List build output' },
      result: { content: 'total 0\n', is_error: false, timestamp: '2026-11-21T09:00:03.000Z' },
    });
    expect(parsed.events[2]?.result).to.include({ is_error: true, content: 'old_string not found' });
    expect(parsed.events[6]?.arguments).to.deep.equal({ command: 'rm -rf ~', description: 'wipe caches' });
    expect(parsed.skipped).to.deep.equal({ unknown_line_type: 1, unknown_block_type: 1, malformed_json: 1 });
    expect(parsed.lines).to.equal(12);
    expect(parsed.consumedBytes).to.equal(readFileSync(CAPTURE).length);
  });

  it('a result read in a later chunk completes the call; ids are the same however the file is cut', () => {
    const text = readFileSync(CAPTURE, 'utf8');
    const cut = text.indexOf('\n', text.indexOf('toolu_01A')) + 1;
    const state: Record<string, unknown> = {};
    const first = claudeCodeAdapter.parse(text.slice(0, cut), { file: CAPTURE, state });
    const second = claudeCodeAdapter.parse(text.slice(cut), { file: CAPTURE, state });
    expect(first.events.map((e) => e.id)).to.deep.equal([eventId(SESSION, 'toolu_01A')]);
    expect(second.completions).to.deep.equal([
      {
        event_id: eventId(SESSION, 'toolu_01A'),
        result: { content: 'total 0\n', is_error: false, timestamp: '2026-11-21T09:00:03.000Z' },
      },
    ]);
    const whole = claudeCodeAdapter.parse(text, { file: CAPTURE });
    expect([...first.events, ...second.events].map((e) => e.id)).to.deep.equal(whole.events.map((e) => e.id));
  });
});
