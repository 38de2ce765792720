import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { cursorAdapter, eventId } from '../src/index.js';

const FIXTURE_HOME = fileURLToPath(new URL('../../test/fixtures/cursor-home/', import.meta.url));
const SESSION = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const SESSION_DIR = join(FIXTURE_HOME, '.cursor', 'projects', 'work-studio', 'agent-transcripts', SESSION);
const CAPTURE = join(SESSION_DIR, `${SESSION}.jsonl`);
const SUBAGENT = join(SESSION_DIR, 'subagents', 'explore-1.jsonl');

describe('cursor adapter', () => {
  it('detects ~/.cursor, nothing otherwise', async () => {
    const home = makeTempDir();
    expect(await cursorAdapter.detect({ HOME: home })).to.equal(null);
    mkdirSync(join(home, '.cursor'));
    expect(await cursorAdapter.detect({ HOME: home })).to.deep.equal({
      name: 'cursor',
      path: join(home, '.cursor'),
      adapter: 'cursor',
      ingestion_mode: 'tail',
    });
  });

  it('lists agent transcripts and subagent transcripts', async () => {
    expect(await cursorAdapter.listCaptures({ HOME: FIXTURE_HOME })).to.deep.equal([CAPTURE, SUBAGENT]);
  });

  it('turns every tool_use block into an event with the canonical tool and the Shell working directory as cwd', () => {
    const parsed = cursorAdapter.parse(readFileSync(CAPTURE, 'utf8'), { file: CAPTURE, offset: 0 });
    expect(parsed.events.map((e) => [e.tool_name, e.canonical_tool])).to.deep.equal([
      ['Shell', 'shell'],
      ['Read', 'read'],
      ['StrReplace', 'edit'],
      ['CallMcpTool', 'mcp'],
      ['Grep', 'search'],
      ['WebFetch', 'fetch'],
      ['Shell', 'shell'],
    ]);
    expect(parsed.events.every((e) => e.cwd === '/work/studio' && e.session_id === SESSION)).to.equal(true);
    expect(parsed.events[6]?.arguments['command']).to.equal('rm -rf ~');
    expect(parsed.skipped).to.deep.equal({ unknown_line_type: 1, unknown_block_type: 1, malformed_json: 1 });
    expect(new Set(parsed.events.map((e) => e.id)).size).to.equal(7);
  });

  it('ids come from the line offset in the file: the same whether the file is read whole or from a later offset', () => {
    const text = readFileSync(CAPTURE, 'utf8');
    const whole = cursorAdapter.parse(text, { file: CAPTURE, offset: 0 });
    const cut = text.indexOf('\n', text.indexOf('turn_ended')) + 1;
    const later = cursorAdapter.parse(text.slice(cut), {
      file: CAPTURE,
      offset: Buffer.byteLength(text.slice(0, cut)),
    });
    expect(later.events.map((e) => e.id)).to.deep.equal(whole.events.slice(3).map((e) => e.id));
    // The first call is block 2 of the second line, which starts right after the first.
    expect(whole.events[0]?.id).to.equal(
      eventId(SESSION, SESSION, Buffer.byteLength(text.slice(0, text.indexOf('\n') + 1)), 2),
    );
  });

  it('a subagent transcript belongs to its parent session', () => {
    const parsed = cursorAdapter.parse(readFileSync(SUBAGENT, 'utf8'), { file: SUBAGENT, offset: 0 });
    expect(parsed.events.map((e) => [e.session_id, e.tool_name, e.canonical_tool])).to.deep.equal([
      [SESSION, 'Glob', 'search'],
    ]);
    expect(parsed.events[0]?.id).to.match(new RegExp(`^cursor:${SESSION}:explore-1@\\d+\\.0$`));
  });
});
