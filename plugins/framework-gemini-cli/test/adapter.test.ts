import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { eventId, geminiCliAdapter } from '../src/index.js';

const FIXTURE_HOME = fileURLToPath(new URL('../../test/fixtures/gemini-home/', import.meta.url));
const CHATS = join(FIXTURE_HOME, '.gemini', 'tmp', 'webshop', 'chats');
const CAPTURE = join(CHATS, 'session-2026-11-21T11-00-7e3f0a12.jsonl');
const LEGACY = join(FIXTURE_HOME, '.gemini', 'tmp', 'legacy', 'chats', 'session-2026-10-02T08-15-0a1b2c3d.json');
const SESSION = '7e3f0a12-44b1-4f6e-8d2a-0b9c8d7e6f5a';

describe('gemini-cli adapter', () => {
  it('detects ~/.gemini by default and $GEMINI_CLI_HOME/.gemini when set, nothing otherwise', async () => {
    const home = makeTempDir();
    expect(await geminiCliAdapter.detect({ HOME: home })).to.equal(null);
    mkdirSync(join(home, '.gemini'));
    expect(await geminiCliAdapter.detect({ HOME: home })).to.deep.equal({
      name: 'gemini-cli',
      path: join(home, '.gemini'),
      adapter: 'gemini-cli',
      ingestion_mode: 'tail',
    });
    const custom = makeTempDir();
    expect(await geminiCliAdapter.detect({ HOME: home, GEMINI_CLI_HOME: custom })).to.equal(null);
    mkdirSync(join(custom, '.gemini'));
    expect((await geminiCliAdapter.detect({ HOME: home, GEMINI_CLI_HOME: custom }))?.path).to.equal(
      join(custom, '.gemini'),
    );
  });

  it('lists chat recordings of every project (JSON lines and legacy whole files), nothing outside chats/', async () => {
    expect(await geminiCliAdapter.listCaptures({ GEMINI_CLI_HOME: FIXTURE_HOME })).to.deep.equal([LEGACY, CAPTURE]);
  });

  it('reads each tool call once, with the result of its last record, the project root as cwd, and the canonical tool', () => {
    const parsed = geminiCliAdapter.parse(readFileSync(CAPTURE, 'utf8'), { file: CAPTURE });
    expect(parsed.events.map((e) => [e.tool_name, e.canonical_tool])).to.deep.equal([
      ['run_shell_command', 'shell'],
      ['read_file', 'read'],
      ['replace', 'edit'],
      ['mcp_github_list_issues', 'mcp'],
      ['google_web_search', 'fetch'],
      ['run_shell_command', 'shell'],
    ]);
    const [ls, , replace] = parsed.events;
    expect(ls).to.deep.equal({
      id: eventId(SESSION, 'run_shell_command-1763722800001-1'),
      framework: 'gemini-cli',
      session_id: SESSION,
      timestamp: '2026-11-21T11:00:02.000Z',
      cwd: '/work/webshop',
      tool_name: 'run_shell_command',
      canonical_tool: 'shell',
      arguments: { command: 'ls -la', description: 'List files', dir_path: '/work/webshop' },
      result: { content: 'total 4\n', is_error: false, timestamp: '2026-11-21T11:00:02.000Z' },
    });
    expect(replace?.result).to.deep.include({ content: '0 occurrences found', is_error: true });
    expect(parsed.events[5]?.arguments['command']).to.equal('rm -rf ~');
    expect(parsed.events[5]?.result, 'awaiting approval: no result yet').to.equal(undefined);
    expect(parsed.skipped).to.deep.equal({ unknown_record: 1, unknown_message_type: 1, malformed_json: 1 });
  });

  it('a call re-recorded in a later chunk completes the event of the earlier chunk instead of repeating it', () => {
    const text = readFileSync(CAPTURE, 'utf8');
    const lines = text.split('\n');
    const cut = lines.slice(0, 3).join('\n').length + 1; // metadata, user, first record of m2 (executing)
    const state: Record<string, unknown> = {};
    const first = geminiCliAdapter.parse(text.slice(0, cut), { file: CAPTURE, state });
    const second = geminiCliAdapter.parse(text.slice(cut), { file: CAPTURE, state });
    expect(first.events.map((e) => e.id)).to.deep.equal([eventId(SESSION, 'run_shell_command-1763722800001-1')]);
    expect(first.events[0]?.result).to.equal(undefined);
    expect(second.completions).to.deep.equal([
      {
        event_id: eventId(SESSION, 'run_shell_command-1763722800001-1'),
        result: { content: 'total 4\n', is_error: false, timestamp: '2026-11-21T11:00:02.000Z' },
      },
    ]);
    expect(second.events).to.have.length(5);
  });

  it('a read resuming mid-file without state (watch from a stored offset) takes the session id from the metadata line', () => {
    const text = readFileSync(CAPTURE, 'utf8');
    const cut = text.split('\n').slice(0, 3).join('\n').length + 1;
    const resumed = geminiCliAdapter.parse(text.slice(cut), { file: CAPTURE, state: {}, offset: cut });
    expect(resumed.events).to.have.length.above(0);
    expect(new Set(resumed.events.map((e) => e.session_id))).to.deep.equal(new Set([SESSION]));
    expect(resumed.events[0]?.id.startsWith(`gemini-cli:${SESSION}:`)).to.equal(true);
  });

  it('reads a legacy whole-file recording handed over as one line', () => {
    const line = `${JSON.stringify(JSON.parse(readFileSync(LEGACY, 'utf8')))}\n`;
    const parsed = geminiCliAdapter.parse(line, { file: LEGACY });
    expect(parsed.events.map((e) => [e.tool_name, e.canonical_tool, e.cwd, e.session_id])).to.deep.equal([
      ['write_file', 'write', '/work/legacy', '0a1b2c3d-0000-4000-8000-00000000abcd'],
    ]);
    expect(parsed.skipped).to.deep.equal({});
  });
});
