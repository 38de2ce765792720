import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { startDaemon, type Daemon } from '../support/daemon.js';

/**
 * Issue 16's risk probes end to end: the real `agentgov score` binary over real HTTP, the real
 * engine behind it. No blind spots (finding 6), the new risk classes (finding 5), the project root
 * wherever it lives (finding 4) and metadata endpoints (finding 11).
 */
interface ScoreAnswer {
  recommendation: { action: string; reason_code: string };
  risk_assessment: { score: number };
  evidence: { commands?: Array<{ argv: string[]; via?: string[] }>; factors?: string[] };
}

describe('agentgov score: the risk probes of issue 16 (real binary, real HTTP)', () => {
  let daemon: Daemon;
  let url: string;
  let project: string;
  let home: string;

  before(async () => {
    home = makeTempDir('score-probes-');
    project = join(home, 'srv', 'app');
    mkdirSync(project, { recursive: true });
    daemon = startDaemon(['score', '--listen', '127.0.0.1:0'], { env: isolatedEnv(home), cwd: project });
    url = (await daemon.waitFor(/listening on (http:\S+)/))[1]!;
  });
  after(async () => {
    await daemon?.stop();
  });

  const score = async (tool_name: string, args: Record<string, unknown>, cwd?: string): Promise<ScoreAnswer> => {
    const reply = await fetch(`${url}/score`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool_name, arguments: args, session_id: 'probe', ...(cwd ? { cwd } : {}) }),
    });
    expect(reply.status).to.equal(200);
    return (await reply.json()) as ScoreAnswer;
  };

  it('"ls; "*500 + "rm -rf ~" is denied', async () => {
    const answer = await score('Bash', { command: `${'ls; '.repeat(500)}rm -rf ~` });
    expect(answer.recommendation).to.deep.equal({ action: 'deny', reason_code: 'destructive_delete_critical' });
  });

  it('a command padded past 32 KiB is denied, one past 64 KiB asks (command_unreadable)', async () => {
    expect((await score('Bash', { command: `echo ${'x'.repeat(40_000)}; rm -rf ~` })).recommendation.action).to.equal(
      'deny',
    );
    const huge = await score('Bash', { command: `echo ${'x'.repeat(70_000)}` });
    expect(huge.recommendation).to.deep.equal({ action: 'ask', reason_code: 'command_unreadable' });
    expect(huge.evidence.factors?.join('\n')).to.match(/not read in full/);
  });

  it('"a | "*10000 asks (command_unreadable) and the server keeps answering', async () => {
    const answer = await score('Bash', { command: `${'a | '.repeat(10_000)}a` });
    expect(answer.recommendation).to.deep.equal({ action: 'ask', reason_code: 'command_unreadable' });
    expect((await score('Bash', { command: 'ls -la' })).recommendation.action).to.equal('allow');
  });

  it('echo "rm -rf ~" | bash is denied', async () => {
    expect((await score('Bash', { command: 'echo "rm -rf ~" | bash' })).recommendation).to.deep.equal({
      action: 'deny',
      reason_code: 'destructive_delete_critical',
    });
  });

  // Allowed before the second probing round: a trap action, an alias, a script written then run, a
  // command held in a one-liner's variable, at's stdin.
  for (const command of [
    `trap 'rm -rf ~' EXIT; true`,
    `alias ls='rm -rf ~'; ls`,
    `echo "rm -rf ~" > x.sh && bash x.sh`,
    `python3 -c 'import os; c="rm -rf ~"; os.system(c)'`,
    `printf 'rm -rf ~' | at now`,
  ]) {
    it(`${command} is denied`, async () => {
      expect((await score('Bash', { command })).recommendation).to.deep.equal({
        action: 'deny',
        reason_code: 'destructive_delete_critical',
      });
    });
  }

  it('a channel payload is judged as a command, and the evidence names the channel', async () => {
    const answer = await score('Bash', { command: `git -c core.pager='sh -c "rm -rf ~"' log` });
    expect(answer.recommendation).to.deep.equal({ action: 'deny', reason_code: 'destructive_delete_critical' });
    expect(answer.evidence.commands?.find((c) => c.argv[0] === 'rm')?.via).to.include('git core.pager');
  });

  for (const cwd of ['/srv/app', '/opt/app', '/var/www/app']) {
    it(`inside a project at ${cwd} (the request's cwd), rm -rf node_modules is allowed; ~/.ssh and /etc are not`, async () => {
      expect((await score('Bash', { command: 'rm -rf node_modules' }, cwd)).recommendation.action).to.equal('allow');
      expect(
        (await score('Write', { file_path: `${cwd}/src/index.ts`, content: 'x' }, cwd)).recommendation.action,
      ).to.equal('allow');
      expect((await score('Bash', { command: 'cat ~/.ssh/id_rsa' }, cwd)).recommendation.action).to.be.oneOf([
        'ask',
        'deny',
      ]);
      expect((await score('Write', { file_path: '/etc/hosts', content: 'x' }, cwd)).recommendation.action).to.equal(
        'deny',
      );
    });
  }

  it('a fetch to the cloud metadata endpoint asks at least', async () => {
    const answer = await score('WebFetch', {
      url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    });
    expect(answer.recommendation.action).to.be.oneOf(['ask', 'deny']);
    expect(answer.recommendation.reason_code).to.equal('metadata_access');
  });
});
