/**
 * GitHub Copilot CLI (the real CLI from the npm registry, pinned in package-lock.json) after exactly
 * the README's flow, `agentgov init copilot-cli --project P`, headless as people run it
 * (`copilot -p … --allow-all-tools`), its model the scripted server on 127.0.0.1 through the BYOK
 * provider variables (OpenAI chat completions).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin, agentsDir } from '../src/install-agents.mjs';
import { findFiles, gateJournal, replay, startWatch, status, watchOnce } from '../src/agentgov-record.mjs';
import { startModelServer } from '../src/model-server.mjs';
import { waitUntil } from '../src/wait-until.mjs';
import chat, { assistantToolCalls, offeredFunctions, toolMessages } from '../src/protocols/openai-chat.mjs';
import { agentgov, createRun, describeRun, removeRun, runAgent, runProcess } from '../src/run-agent.mjs';

const AGENT = 'copilot-cli';

describe('Copilot CLI (real CLI) with agentgov init copilot-cli', function () {
  this.timeout(600_000);
  let server;
  let bin;
  let run;

  before(async () => {
    bin = agentBin(AGENT);
    server = await startModelServer({ protocols: [chat] });
  });
  after(() => server?.close());
  beforeEach(async () => {
    run = createRun(AGENT);
    await runProcess('git', ['init', '-q'], { cwd: run.project, env: run.env });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed') removeRun(run);
  });

  const copilotEnv = (extra = {}) => ({
    COPILOT_PROVIDER_BASE_URL: `${server.url}/v1`,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_API_KEY: 'e2e-not-a-key',
    COPILOT_MODEL: 'gpt-4.1',
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    // The native binary unpacks ~235 MB of its own files on first start; one shared copy, not one per run's HOME.
    COPILOT_CACHE_HOME: join(agentsDir(), '.copilot-cache'),
    ...extra,
  });
  const runCopilot = (args = [], env = {}) =>
    runAgent(run, bin, ['-p', 'tidy up this project', '--allow-all-tools', ...args], {
      env: copilotEnv(env),
      timeoutMs: 180_000,
    });

  it('blocks its own rm -rf ~ with the hook init wrote, runs ls without a prompt, and records each call once', async () => {
    const init = await agentgov(run, ['init', AGENT, '--project', run.project]);
    assert.equal(init.code, 0, describeRun(init));
    assert.ok(
      existsSync(join(run.home, '.copilot', 'hooks', 'agentgov.json')),
      'the hook is in the user hooks Copilot CLI loads with -p',
    );
    const doctor = await agentgov(run, ['doctor', '--project', run.project]);
    assert.equal(doctor.code, 0, describeRun(doctor));

    server.setScript({
      calls: [
        { kind: 'shell', command: 'rm -rf ~' },
        { kind: 'shell', command: 'ls' },
      ],
      text: 'done',
    });
    const result = await runCopilot();
    assert.equal(result.code, 0, describeRun(result));
    assert.ok(existsSync(run.marker), `the home was wiped: ${describeRun(result)}`);

    const calls = assistantToolCalls(server.requests);
    assert.deepEqual(
      calls.map((c) => [c.function.name, JSON.parse(c.function.arguments).command]),
      [
        ['bash', 'rm -rf ~'],
        ['bash', 'ls'],
      ],
    );
    const results = new Map(toolMessages(server.requests).map((m) => [m.id, m.text]));
    assert.match(
      results.get(calls[0].id) ?? '',
      /Denied by preToolUse hook: .*destructive_delete_critical/,
      `rm -rf ~ was not refused: ${results.get(calls[0].id)}`,
    );
    assert.match(results.get(calls[1].id) ?? '', /README\.md/, `ls did not run: ${results.get(calls[1].id)}`);

    const journal = gateJournal(run);
    assert.deepEqual(journal.map((e) => [e.event.arguments.command, e.verdict.decision]).sort(), [
      ['ls', 'allow'],
      ['rm -rf ~', 'deny'],
    ]);
    const sessions = new Set(journal.map((e) => e.event.session_id));
    assert.equal(sessions.size, 1);
    const [sessionId] = sessions;

    await watchOnce(run);
    const events = join(run.home, '.copilot', 'session-state', sessionId, 'events.jsonl');
    assert.ok(existsSync(events), `Copilot CLI's session events of ${sessionId}`);
    const replayed = await replay(run, events, AGENT);
    assert.deepEqual(
      replayed.records.map((r) => [r.event.tool_name, r.event.arguments.command, r.event.session_id]),
      [
        ['bash', 'rm -rf ~', sessionId],
        ['bash', 'ls', sessionId],
      ],
    );
    assert.match(replayed.summary, /0 new event\(s\), 2 already recorded/);
    const db = await status(run);
    assert.equal(db.events, 2, `one event per call: ${JSON.stringify(db)}`);
    assert.equal(db.sessions, 1, 'one session');
    assert.equal(db.assessments.gate_decisions, 2);
  });

  it('with watch running: the live gate and the tailed session events are one event per call, one session', async () => {
    assert.equal((await agentgov(run, ['init', AGENT, '--project', run.project])).code, 0);
    const watch = await startWatch(run);
    let events;
    try {
      server.setScript({
        calls: [
          { kind: 'shell', command: 'rm -rf ~' },
          { kind: 'shell', command: 'ls' },
        ],
        text: 'done',
      });
      const result = await runCopilot();
      assert.equal(result.code, 0, describeRun(result));
      assert.ok(existsSync(run.marker), `the home was wiped: ${describeRun(result)}`);
      assert.equal(gateJournal(run).length, 0, 'watch answered the hook (nothing journaled)');
      [events] = findFiles(join(run.home, '.copilot', 'session-state'), /^events\.jsonl$/);
      const size = statSync(events).size;
      await waitUntil(
        async () => (await status(run)).captures.some((c) => c.file === events && c.offset === size),
        () => `watch never read all of ${events}:\n${watch.output()}`,
      );
    } finally {
      assert.equal(await watch.stop(), 0, watch.output());
    }
    const db = await status(run);
    assert.equal(db.events, 2, `one event per call: ${JSON.stringify(db)}`);
    assert.equal(db.sessions, 1, 'one session');
    assert.equal(db.assessments.gate_decisions, 2);
    assert.match((await replay(run, events, AGENT)).summary, /0 new event\(s\), 2 already recorded/);
  });

  it('a project-scope hook: -p ignores it, doctor fails until the folder is trusted, then the block holds', async () => {
    const init = await agentgov(run, ['init', AGENT, '--scope', 'project', '--project', run.project]);
    assert.equal(init.code, 0, describeRun(init));
    server.setScript({ calls: [{ kind: 'shell', command: 'echo agentgov-was-not-asked > probe.txt' }], text: 'done' });
    const ignored = await runCopilot();
    assert.equal(ignored.code, 0, describeRun(ignored));
    assert.equal(gateJournal(run).length, 0, 'Copilot CLI -p did not call the project hook (its 1.0.40 opt-in)');
    const before = await agentgov(run, ['doctor', '--project', run.project]);
    assert.equal(before.code, 1, `doctor must fail while the hook is inert: ${describeRun(before)}`);
    assert.match(before.stdout + before.stderr, /GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true/);

    // the trust step, as Copilot CLI's folder-trust prompt records it
    const config = join(run.home, '.copilot', 'config.json');
    const current = JSON.parse(
      readFileSync(config, 'utf8')
        .split('\n')
        .filter((l) => !l.trimStart().startsWith('//'))
        .join('\n'),
    );
    writeFileSync(config, `${JSON.stringify({ ...current, trustedFolders: [run.project] }, null, 2)}\n`);
    const after = await agentgov(run, ['doctor', '--project', run.project]);
    assert.equal(after.code, 0, describeRun(after));
    server.setScript({ calls: [{ kind: 'shell', command: 'rm -rf ~' }], text: 'done' });
    const blocked = await runCopilot();
    assert.equal(blocked.code, 0, describeRun(blocked));
    assert.ok(existsSync(run.marker), `the home was wiped: ${describeRun(blocked)}`);
    assert.deepEqual(
      gateJournal(run).map((e) => e.verdict.decision),
      ['deny'],
    );
  });

  it('init --mcp: Copilot CLI offers agentgov’s tools to its model and its call of recon gets an answer', async () => {
    writeFileSync(
      join(run.project, 'greet.ts'),
      'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
    );
    // the user's agentgov home is not the default one; the agent does not pass AGENTGOV_HOME to its MCP servers
    const agentgovHome = join(run.dir, 'agentgov-home');
    const init = await agentgov(run, ['init', AGENT, '--mcp', '--project', run.project], {
      env: { AGENTGOV_HOME: agentgovHome },
    });
    assert.equal(init.code, 0, describeRun(init));
    server.setScript({
      calls: [{ kind: 'mcp', tool: 'recon', arguments: { task: 'change the greet function' } }],
      text: 'done',
    });
    const result = await runCopilot();
    assert.equal(result.code, 0, describeRun(result));
    const offered = offeredFunctions(server.requests);
    assert.ok(
      offered.some((name) => /agentgov.*recon$/.test(name)),
      `agentgov's tools were not offered: ${offered.join(', ')}`,
    );
    const [call] = assistantToolCalls(server.requests);
    const [answer] = toolMessages(server.requests).filter((m) => m.id === call.id);
    assert.ok(answer, 'recon was answered');
    assert.match(answer.text, /greet|E_INDEX_NOT_READY|gate/, `recon's answer: ${answer.text}`);
    assert.equal(
      findFiles(join(agentgovHome, 'logs'), /^serve-/).length,
      1,
      'the server the agent started kept its files in the configured home',
    );
    assert.deepEqual(findFiles(join(run.home, '.agentgov'), /^serve-/), [], 'and none in the default one');
  });
});
