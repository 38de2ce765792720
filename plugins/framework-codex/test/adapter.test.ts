import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { codexAdapter, eventId, shellCommandOf } from '../src/index.js';

const FIXTURE_HOME = fileURLToPath(new URL('../../test/fixtures/codex-home/', import.meta.url));
const SESSION = '0199a0c4-7e21-7b30-9c1d-5e6f7a8b9c0d';
const CAPTURE = join(FIXTURE_HOME, 'sessions', '2026', '11', '21', `rollout-2026-11-21T10-00-00-${SESSION}.jsonl`);

describe('codex adapter', () => {
  it('detects ~/.codex by default and $CODEX_HOME when set, nothing otherwise', async () => {
    const home = makeTempDir();
    expect(await codexAdapter.detect({ HOME: home })).to.equal(null);
    mkdirSync(join(home, '.codex'));
    expect(await codexAdapter.detect({ HOME: home })).to.deep.equal({
      name: 'codex',
      path: join(home, '.codex'),
      adapter: 'codex',
      ingestion_mode: 'tail',
    });
    const custom = join(makeTempDir(), 'codex-state');
    expect(await codexAdapter.detect({ HOME: home, CODEX_HOME: custom })).to.equal(null);
    mkdirSync(custom);
    expect((await codexAdapter.detect({ HOME: home, CODEX_HOME: custom }))?.path).to.equal(custom);
    expect(codexAdapter.captureRoots({ CODEX_HOME: custom })).to.deep.equal([
      join(custom, 'sessions'),
      join(custom, 'archived_sessions'),
    ]);
  });

  it('lists rollouts under sessions/ (and only rollouts)', async () => {
    expect(await codexAdapter.listCaptures({ CODEX_HOME: FIXTURE_HOME })).to.deep.equal([CAPTURE]);
  });

  it('pairs function calls with their outputs by call_id, turns argv into one command, and follows the turn cwd', () => {
    const parsed = codexAdapter.parse(readFileSync(CAPTURE, 'utf8'), { file: CAPTURE });
    expect(
      parsed.events.map((e) => [
        e.tool_name,
        e.canonical_tool,
        e.arguments['command'] ?? e.arguments['file_path'] ?? null,
      ]),
    ).to.deep.equal([
      ['shell', 'shell', 'npm test'],
      ['local_shell', 'shell', 'git log --oneline -3'],
      ['apply_patch', 'edit', 'src/sum.ts'],
      ['github__get_issue', 'mcp', null],
      ['shell_command', 'shell', 'rm -rf ~'],
    ]);
    const [test, log, patch] = parsed.events;
    expect(test).to.deep.equal({
      id: eventId(SESSION, 'call_k1'),
      framework: 'codex',
      session_id: SESSION,
      timestamp: '2026-11-21T10:00:03.000Z',
      cwd: '/work/api',
      tool_name: 'shell',
      canonical_tool: 'shell',
      arguments: { command: 'npm test', argv: ['bash', '-lc', 'npm test'], workdir: '/work/api', timeout_ms: 120000 },
      result: { content: '1 failing\n', is_error: true, timestamp: '2026-11-21T10:00:05.000Z' },
    });
    expect(log?.result).to.deep.equal({ content: 'a1 fix\n', is_error: false, timestamp: '2026-11-21T10:00:06.000Z' });
    expect(patch?.result?.content).to.match(/^Success/);
    expect(parsed.events[4]?.cwd, 'the last turn_context moved the cwd').to.equal('/work/api/packages/core');
    expect(parsed.skipped).to.deep.equal({ malformed_json: 1, unknown_line_type: 1, unknown_item_type: 1 });
    expect(parsed.consumedBytes).to.equal(readFileSync(CAPTURE).length);
  });

  it('an output in a later chunk completes the call; the session id comes from the file name when session_meta was in an earlier chunk', () => {
    const text = readFileSync(CAPTURE, 'utf8');
    const cut = text.indexOf('\n', text.indexOf('"call_k1"')) + 1;
    const second = codexAdapter.parse(text.slice(cut), { file: CAPTURE });
    expect(second.completions[0]?.event_id).to.equal(eventId(SESSION, 'call_k1'));
    expect(second.events[0]?.id).to.equal(eventId(SESSION, 'call_k2'));
  });

  it('quotes argv words unless a shell runs a script', () => {
    expect(shellCommandOf(['bash', '-lc', 'ls | wc -l'])).to.equal('ls | wc -l');
    expect(shellCommandOf(['rm', '-rf', 'my dir', "it's"])).to.equal(`rm -rf 'my dir' 'it'\\''s'`);
  });
});
