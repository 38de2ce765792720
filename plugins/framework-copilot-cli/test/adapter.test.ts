import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { copilotCliAdapter, eventId } from '../src/index.js';

const FIXTURE_HOME = fileURLToPath(new URL('../../test/fixtures/copilot-home/', import.meta.url));
const SESSION = '5c1d9e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f';
const CAPTURE = join(FIXTURE_HOME, 'session-state', SESSION, 'events.jsonl');

describe('copilot-cli adapter', () => {
  it('detects ~/.copilot by default and $COPILOT_HOME when set, nothing otherwise', async () => {
    const home = makeTempDir();
    expect(await copilotCliAdapter.detect({ HOME: home })).to.equal(null);
    mkdirSync(join(home, '.copilot'));
    expect(await copilotCliAdapter.detect({ HOME: home })).to.deep.equal({
      name: 'copilot-cli',
      path: join(home, '.copilot'),
      adapter: 'copilot-cli',
      ingestion_mode: 'tail',
    });
    const custom = join(makeTempDir(), 'copilot');
    expect(await copilotCliAdapter.detect({ HOME: home, COPILOT_HOME: custom })).to.equal(null);
    mkdirSync(custom);
    expect((await copilotCliAdapter.detect({ HOME: home, COPILOT_HOME: custom }))?.path).to.equal(custom);
  });

  it('lists every session events.jsonl (not workspace.yaml)', async () => {
    expect(await copilotCliAdapter.listCaptures({ COPILOT_HOME: FIXTURE_HOME })).to.deep.equal([CAPTURE]);
  });

  it('pairs tool.execution_start with tool.execution_complete by toolCallId, with the session cwd and canonical tool', () => {
    const parsed = copilotCliAdapter.parse(readFileSync(CAPTURE, 'utf8'), { file: CAPTURE });
    expect(parsed.events.map((e) => [e.tool_name, e.canonical_tool])).to.deep.equal([
      ['bash', 'shell'],
      ['view', 'read'],
      ['edit', 'edit'],
      ['github-mcp-server-list_pull_requests', 'mcp'],
      ['web_fetch', 'fetch'],
      ['bash', 'shell'],
    ]);
    expect(parsed.events[0]).to.deep.equal({
      id: eventId(SESSION, 'tc_1'),
      framework: 'copilot-cli',
      session_id: SESSION,
      timestamp: '2026-11-21T12:00:02.000Z',
      cwd: '/work/notes',
      tool_name: 'bash',
      canonical_tool: 'shell',
      arguments: { command: 'git status --short', description: 'Show changes' },
      result: { content: ' M CHANGELOG.md\n', is_error: false, timestamp: '2026-11-21T12:00:03.000Z' },
    });
    expect(parsed.events[2]?.result).to.deep.equal({
      content: 'old_str matched twice',
      is_error: true,
      timestamp: '2026-11-21T12:00:05.000Z',
    });
    expect(parsed.events[4]?.result, 'its completion line was cut short').to.equal(undefined);
    expect(parsed.events[5]?.arguments['command']).to.equal('rm -rf ~');
    expect(parsed.skipped).to.deep.equal({ unknown_event_type: 2, malformed_json: 1 });
  });

  it('the session directory names the session when session.start was read earlier', () => {
    const text = readFileSync(CAPTURE, 'utf8');
    const cut = text.indexOf('\n', text.indexOf('"tc_1","toolName"')) + 1;
    const second = copilotCliAdapter.parse(text.slice(cut), { file: CAPTURE });
    expect(second.completions[0]?.event_id).to.equal(eventId(SESSION, 'tc_1'));
    expect(second.events[0]?.id).to.equal(eventId(SESSION, 'tc_2'));
  });
});
