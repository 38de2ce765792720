/**
 * Gemini CLI (the real CLI from the npm registry, pinned in package-lock.json) after exactly the
 * README's flow, `agentgov init gemini-cli --project P`, headless as people run it
 * (`gemini -p … --yolo --skip-trust`: `--skip-trust` is what its own error message suggests for an
 * untrusted folder), its model the scripted server on 127.0.0.1 through GOOGLE_GEMINI_BASE_URL.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin } from '../src/install-agents.mjs';
import { findFiles, gateJournal, replay, startWatch, status, watchOnce } from '../src/agentgov-record.mjs';
import { startModelServer } from '../src/model-server.mjs';
import { waitUntil } from '../src/wait-until.mjs';
import gemini, { functionCalls, functionResponses, offeredFunctions } from '../src/protocols/gemini.mjs';
import { agentgov, createRun, describeRun, removeRun, runAgent, runProcess } from '../src/run-agent.mjs';

const AGENT = 'gemini-cli';

/** What a person who uses an API key has in ~/.gemini/settings.json (Gemini CLI writes it on first use). */
function writeUserSettings(run) {
  const dir = join(run.home, '.gemini');
  mkdirSync(dir, { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    telemetry: { enabled: false },
  };
  writeFileSync(join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

const text = (response) => JSON.stringify(response?.response ?? {});

describe('Gemini CLI (real CLI) with agentgov init gemini-cli', function () {
  this.timeout(600_000);
  let server;
  let bin;
  let run;

  before(async () => {
    bin = agentBin(AGENT);
    server = await startModelServer({ protocols: [gemini] });
  });
  after(() => server?.close());
  beforeEach(async () => {
    run = createRun(AGENT);
    await runProcess('git', ['init', '-q'], { cwd: run.project, env: run.env });
    writeUserSettings(run);
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed') removeRun(run);
  });

  const geminiEnv = (extra = {}) => ({ GEMINI_API_KEY: 'e2e-not-a-key', GOOGLE_GEMINI_BASE_URL: server.url, ...extra });
  const runGemini = (args, env) =>
    runAgent(run, bin, ['-p', 'tidy up this project', '--yolo', ...args], { env: geminiEnv(env), timeoutMs: 180_000 });

  it('blocks its own rm -rf ~ with the hook init wrote, runs ls without a prompt, and records each call once', async () => {
    const init = await agentgov(run, ['init', AGENT, '--project', run.project]);
    assert.equal(init.code, 0, describeRun(init));
    const settings = JSON.parse(readFileSync(join(run.home, '.gemini', 'settings.json'), 'utf8'));
    assert.equal(settings.security.auth.selectedType, 'gemini-api-key', 'init kept the user settings');
    assert.equal(
      settings.hooks.BeforeTool.length,
      1,
      'the hook is in the user settings Gemini CLI reads in every mode',
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
    const result = await runGemini(['--skip-trust']);
    assert.equal(result.code, 0, describeRun(result));
    assert.ok(existsSync(run.marker), `the home was wiped: ${describeRun(result)}`);
    assert.match(result.stdout, /done/, 'the task went on after the refusal (an ask would have stopped it silently)');

    assert.deepEqual(
      functionCalls(server.requests).map((c) => [c.name, c.args.command]),
      [
        ['run_shell_command', 'rm -rf ~'],
        ['run_shell_command', 'ls'],
      ],
    );
    const [wipe, list] = functionResponses(server.requests);
    assert.match(
      text(wipe),
      /Tool execution blocked: .*destructive_delete_critical/,
      `rm -rf ~ was not refused: ${text(wipe)}`,
    );
    assert.match(text(list), /README\.md/, `ls did not run: ${text(list)}`);

    // the hook answered both calls in process (no watch) and journaled them
    const journal = gateJournal(run);
    assert.deepEqual(journal.map((e) => [e.event.arguments.command, e.verdict.decision]).sort(), [
      ['ls', 'allow'],
      ['rm -rf ~', 'deny'],
    ]);
    const sessions = new Set(journal.map((e) => e.event.session_id));
    assert.equal(sessions.size, 1);

    // watch records the journal and Gemini CLI's own recording; the hook calls and the recorded calls are one event each
    await watchOnce(run);
    const [sessionId] = sessions;
    const recordings = findFiles(
      join(run.home, '.gemini', 'tmp'),
      new RegExp(`^session-.*-${sessionId.slice(0, 8)}\\.jsonl$`),
    );
    assert.equal(recordings.length, 1, `Gemini CLI's recording of session ${sessionId}`);
    const replayed = await replay(run, recordings[0], AGENT);
    assert.deepEqual(
      replayed.records.map((r) => [r.event.tool_name, r.event.arguments.command, r.event.session_id]),
      [
        ['run_shell_command', 'rm -rf ~', sessionId],
        ['run_shell_command', 'ls', sessionId],
      ],
    );
    assert.match(replayed.summary, /0 new event\(s\), 2 already recorded/);
    const db = await status(run);
    assert.equal(db.events, 2, `one event per call: ${JSON.stringify(db)}`);
    assert.equal(db.sessions, 1, 'one session');
    assert.equal(db.assessments.gate_decisions, 2);
  });

  it('the same after replay first and watch later: the journal entries land on the recorded calls', async () => {
    assert.equal((await agentgov(run, ['init', AGENT, '--project', run.project])).code, 0);
    server.setScript({ calls: [{ kind: 'shell', command: 'rm -rf ~' }], text: 'done' });
    const result = await runGemini(['--skip-trust']);
    assert.equal(result.code, 0, describeRun(result));
    assert.ok(existsSync(run.marker), `the home was wiped: ${describeRun(result)}`);
    const [recording] = findFiles(join(run.home, '.gemini', 'tmp'), /^session-.*\.jsonl$/);
    const replayed = await replay(run, recording, AGENT);
    assert.match(replayed.summary, /1 new event\(s\)/);
    await watchOnce(run);
    const db = await status(run);
    assert.equal(db.events, 1, `one event per call: ${JSON.stringify(db)}`);
    assert.equal(db.assessments.gate_decisions, 1, 'the gate verdict is on the recorded call');
  });

  it('with watch running: the live gate and the tailed recording are one event per call, one session', async () => {
    assert.equal((await agentgov(run, ['init', AGENT, '--project', run.project])).code, 0);
    const watch = await startWatch(run);
    try {
      server.setScript({
        calls: [
          { kind: 'shell', command: 'rm -rf ~' },
          { kind: 'shell', command: 'ls' },
        ],
        text: 'done',
      });
      const result = await runGemini(['--skip-trust']);
      assert.equal(result.code, 0, describeRun(result));
      assert.ok(existsSync(run.marker), `the home was wiped: ${describeRun(result)}`);
      assert.equal(gateJournal(run).length, 0, 'watch answered the hook (nothing journaled)');
      // the tailer reads Gemini CLI's recording as it is appended, from a stored offset after the first read
      const [recording] = findFiles(join(run.home, '.gemini', 'tmp'), /^session-.*\.jsonl$/);
      const size = statSync(recording).size;
      await waitUntil(
        async () => (await status(run)).captures.some((c) => c.file === recording && c.offset === size),
        () => `watch never read all of ${recording}:\n${watch.output()}`,
      );
    } finally {
      assert.equal(await watch.stop(), 0, watch.output());
    }
    const db = await status(run);
    assert.equal(db.events, 2, `one event per call: ${JSON.stringify(db)}`);
    assert.equal(db.sessions, 1, 'one session');
    assert.equal(db.assessments.gate_decisions, 2);
    const [recording] = findFiles(join(run.home, '.gemini', 'tmp'), /^session-.*\.jsonl$/);
    assert.match((await replay(run, recording, AGENT)).summary, /0 new event\(s\), 2 already recorded/);
  });

  it('a project-scope hook: inert until the folder is trusted (doctor fails), then the block holds', async () => {
    const init = await agentgov(run, ['init', AGENT, '--scope', 'project', '--project', run.project]);
    assert.equal(init.code, 0, describeRun(init));
    server.setScript({ calls: [{ kind: 'shell', command: 'echo agentgov-was-not-asked' }], text: 'done' });
    const ignored = await runGemini(['--skip-trust']);
    assert.equal(ignored.code, 0, describeRun(ignored));
    assert.equal(gateJournal(run).length, 0, 'Gemini CLI with --skip-trust did not load the project hook');
    const before = await agentgov(run, ['doctor', '--project', run.project]);
    assert.equal(before.code, 1, `doctor must fail while the hook is inert: ${describeRun(before)}`);
    assert.match(before.stdout + before.stderr, /TRUST_FOLDER/);

    // the trust step, as Gemini CLI's "Trust folder" dialog records it
    writeFileSync(
      join(run.home, '.gemini', 'trustedFolders.json'),
      `${JSON.stringify({ [run.project]: 'TRUST_FOLDER' }, null, 2)}\n`,
    );
    const after = await agentgov(run, ['doctor', '--project', run.project]);
    assert.equal(after.code, 0, describeRun(after));
    server.setScript({ calls: [{ kind: 'shell', command: 'rm -rf ~' }], text: 'done' });
    const blocked = await runGemini([]);
    assert.equal(blocked.code, 0, describeRun(blocked));
    assert.ok(existsSync(run.marker), `the home was wiped: ${describeRun(blocked)}`);
    assert.deepEqual(
      gateJournal(run).map((e) => e.verdict.decision),
      ['deny'],
    );
  });

  it('init --mcp: Gemini CLI offers agentgov’s tools to its model and its call of recon gets an answer', async () => {
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
    const result = await runGemini(['--skip-trust']);
    assert.equal(result.code, 0, describeRun(result));
    const offered = offeredFunctions(server.requests);
    assert.ok(
      offered.some((name) => /agentgov.*recon$/.test(name)),
      `agentgov's tools were not offered: ${offered.join(', ')}`,
    );
    const [call] = functionCalls(server.requests);
    assert.match(call.name, /recon$/);
    const [answer] = functionResponses(server.requests);
    assert.ok(answer, 'recon was answered');
    assert.doesNotMatch(text(answer), /not found|MCP error -32000|Connection closed/i, `recon failed: ${text(answer)}`);
    assert.match(text(answer), /greet|E_INDEX_NOT_READY|gate/, `recon's answer: ${text(answer)}`);
    assert.equal(
      findFiles(join(agentgovHome, 'logs'), /^serve-/).length,
      1,
      'the server the agent started kept its files in the configured home',
    );
    assert.deepEqual(findFiles(join(run.home, '.agentgov'), /^serve-/), [], 'and none in the default one');
  });
});
