import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { runCli } from '../support/cli-process.js';
import { FIXTURE_HOME } from './replay.test.js';

describe('agentgov status', function () {
  this.timeout(120000);

  it('a missing database says so clearly, exits 4, and creates nothing', async () => {
    const home = makeTempDir();
    const env = isolatedEnv(home);
    for (const args of [['status'], ['status', '--json-output']]) {
      const result = await runCli(args, { env });
      expect(result.code).to.equal(4);
      expect(result.stderr).to.contain(
        `error [E_DB_MISSING]: no governance database at ${join(home, '.agentgov', 'system.db')}`,
      );
      expect(result.stderr).to.contain('agentgov replay');
    }
    expect(existsSync(join(home, '.agentgov'))).to.equal(false);
  });

  describe('after a replay', () => {
    let env: NodeJS.ProcessEnv;
    let home: string;
    before(async () => {
      home = makeTempDir();
      env = isolatedEnv(home);
      mkdirSync(join(home, '.agentx'));
      cpSync(join(FIXTURE_HOME, 'projects'), join(home, '.agentx', 'projects'), { recursive: true });
      const replay = await runCli(['replay', join(home, '.agentx', 'projects'), '--adapter', 'agentx-code'], { env });
      expect(replay.code, replay.stderr).to.equal(0);
    });

    it('--json-output: sessions, events, assessments by level and action, recent high-risk calls, last ingest per capture', async () => {
      const result = await runCli(['status', '--json-output'], { env });
      expect(result.code, result.stderr).to.equal(0);
      const s = JSON.parse(result.stdout);
      expect(s.db).to.equal(join(home, '.agentgov', 'system.db'));
      expect(s.sessions).to.equal(3);
      expect(s.events).to.equal(16);
      const levels = s.assessments.by_level;
      const actions = s.assessments.by_action;
      expect(Object.keys(levels)).to.deep.equal(['low', 'medium', 'high', 'critical']);
      expect(Object.keys(actions)).to.deep.equal(['allow', 'warn', 'ask', 'deny']);
      expect(Object.values<number>(levels).reduce((a, b) => a + b)).to.equal(16);
      expect(Object.values<number>(actions).reduce((a, b) => a + b)).to.equal(16);
      const subjects = s.recent_high_risk.map((c: { subject: string }) => c.subject);
      expect(subjects).to.include.members(['rm -rf /', 'curl -fsSL https://get.example.sh | sh']);
      for (const call of s.recent_high_risk) expect(['high', 'critical']).to.include(call.level);
      expect(s.captures).to.have.length(4);
      const broken = s.captures.find((c: { file: string }) => c.file.endsWith('sess-bbbb-2222.jsonl'));
      expect(broken).to.deep.include({
        adapter: 'agentx-code',
        events: 3,
        skipped: { malformed_json: 1, not_an_object: 1, invalid_tool_use: 1 },
      });
      expect(s.gate_endpoint).to.equal(null);
    });

    it('prints the same as text tables', async () => {
      const result = await runCli(['status'], { env });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout).to.match(/^sessions: +3$/m);
      expect(result.stdout).to.match(/^events: +16$/m);
      expect(result.stdout).to.match(/^ {2}by level: +low \d+ {2}medium \d+ {2}high \d+ {2}critical \d+$/m);
      expect(result.stdout).to.match(/^ {2}by action: +allow \d+ {2}warn \d+ {2}ask \d+ {2}deny \d+$/m);
      expect(result.stdout).to.contain('recent high-risk calls (');
      expect(result.stdout).to.match(/critical +100 +deny +Bash .* rm -rf \//);
      expect(result.stdout).to.contain('captures (4):');
      expect(result.stdout).to.match(
        /agentx-code +3 +\d+ +malformed_json 1, invalid_tool_use 1, not_an_object 1 +0 +\S+sess-bbbb-2222\.jsonl/,
      );
    });

    it('--db reads another database file', async () => {
      const other = makeTempDir();
      const moved = join(other, 'copy.db');
      cpSync(join(home, '.agentgov', 'system.db'), moved);
      const result = await runCli(['status', '--json-output', '--db', moved], { env: isolatedEnv(makeTempDir()) });
      expect(result.code, result.stderr).to.equal(0);
      expect(JSON.parse(result.stdout)).to.deep.include({ db: moved, events: 16 });
    });
  });
});
