import { appendFileSync, closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { runCli } from '../support/cli-process.js';
import { startDaemon } from '../support/daemon.js';

/** One agentx-code transcript line with one Bash call. */
const call = (id: string, command: string) =>
  `${JSON.stringify({ type: 'assistant', sessionId: 'sess-probe', uuid: `u-${id}`, timestamp: '2026-11-23T10:00:00.000Z', cwd: '/work/p', message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } })}\n`;

/** A transcript line whose bytes are not valid UTF-8. */
const invalidLine = (id: string) => {
  const text = call(id, 'echo @@');
  const at = text.indexOf('@@');
  return Buffer.concat([
    Buffer.from(text.slice(0, at)),
    Buffer.from([0xff, 0xc3, 0x28, 0xe2, 0x82]),
    Buffer.from(text.slice(at + 2)),
  ]);
};

interface StatusJson {
  events: number;
  recent_high_risk: { subject: string | null }[];
  captures: {
    file: string;
    offset: number;
    events: number;
    skipped: Record<string, number>;
    resets: Record<string, number>;
  }[];
}

describe('agentgov watch ingests what is appended, invalid UTF-8 and in-place rewrites included (real binary, real files)', function () {
  this.timeout(120_000);

  it('rm -rf ~ and rm -rf / after invalid UTF-8 lines and an in-place rewrite all reach system.db; status reports every skip and reset', async () => {
    const root = makeTempDir('watch-ingest-');
    const agentgov = join(root, '.agentgov');
    const projects = join(root, '.agentx', 'projects', '-work-p');
    mkdirSync(agentgov, { recursive: true, mode: 0o700 });
    mkdirSync(projects, { recursive: true });
    const env = isolatedEnv(root);
    const capture = join(projects, 'sess-probe.jsonl');
    writeFileSync(capture, call('t1', 'ls'));
    const status = async (): Promise<StatusJson> => {
      const result = await runCli(['status', '--json-output'], { env, cwd: root });
      expect(result.code, result.stderr).to.equal(0);
      return JSON.parse(result.stdout) as StatusJson;
    };
    const until = async (check: (s: StatusJson) => boolean, what: string) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const s = await status();
        if (check(s)) return s;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(s.captures)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };

    const watch = startDaemon(['watch', '--no-score'], { env, cwd: root });
    try {
      await watch.waitFor(/watching /);
      appendFileSync(capture, invalidLine('t2'));
      appendFileSync(capture, 'not json at all\n');
      appendFileSync(capture, call('t3', 'rm -rf ~'));
      await until((s) => s.events >= 3, 'rm -rf ~ after the invalid line');
      appendFileSync(capture, Buffer.concat([invalidLine('t4'), Buffer.from(call('t5', 'rm -rf /'))]));
      const afterAppend = await until((s) => s.events >= 5, 'rm -rf / after the second invalid line');
      expect(afterAppend.captures[0]?.skipped).to.deep.equal({ malformed_json: 1 });
      // Rewritten in place (same inode), larger than before, with a new first line.
      const fd = openSync(capture, 'r+');
      writeSync(
        fd,
        `${call('t6', 'rm -rf --no-preserve-root /')}${'garbage\n'.repeat(8)}${call('t1', 'ls')}${call('t3', 'rm -rf ~')}${call('t5', 'rm -rf /')}${call('t7', `echo ${'x'.repeat(2000)}`)}`,
        0,
      );
      closeSync(fd);
      const rewritten = await until((s) => s.events >= 7, 'the first line of the rewritten file');
      const captureStatus = rewritten.captures.find((c) => c.file === capture)!;
      expect(captureStatus.resets).to.deep.equal({ rewritten: 1 });
      expect(captureStatus.skipped).to.deep.equal({ malformed_json: 9 });
      const subjects = rewritten.recent_high_risk.map((r) => r.subject);
      expect(subjects).to.include.members(['rm -rf ~', 'rm -rf /', 'rm -rf --no-preserve-root /']);
      expect(rewritten.events, 'nothing duplicated').to.equal(7);
      const text = await runCli(['status'], { env, cwd: root });
      expect(text.stdout).to.match(/malformed_json 9 +rewritten 1 +\S+sess-probe\.jsonl/);
    } finally {
      expect(await watch.stop('SIGTERM')).to.equal(0);
    }
  });
});
