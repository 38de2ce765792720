/**
 * Codex CLI (the real CLI from the npm registry, pinned in package-lock.json) after exactly the
 * README's flow, `agentgov init codex --project P`, headless (`codex exec`), its model the scripted
 * Responses server on 127.0.0.1 through a `model_providers` entry of the user's config.toml.
 *
 * Codex runs a project's hooks only in a trusted project, and no hook a person has not reviewed:
 * the suite shows `doctor` failing (with the remedy) until a person took both steps, Codex not
 * calling the hook meanwhile, and the block after them.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentBin } from '../src/install-agents.mjs';
import { codexHooks, trustReviewedHooks } from '../src/codex-hooks-review.mjs';
import { findFiles, gateJournal, replay, startWatch, status, watchOnce } from '../src/agentgov-record.mjs';
import { startModelServer } from '../src/model-server.mjs';
import responses from '../src/protocols/openai-responses.mjs';
import { agentgov, createRun, describeRun, removeRun, runAgent, runProcess } from '../src/run-agent.mjs';
import { RECON_TASK, writeSampleProject } from '../src/sample-project.mjs';

const AGENT = 'codex';

/** The user's Codex configuration: the scripted model as provider, no update checks, no analytics. */
function writeCodexConfig(run, serverUrl) {
  const file = join(run.home, '.codex', 'config.toml');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    [
      'model = "gpt-5.5"',
      'model_provider = "e2e"',
      'check_for_update_on_startup = false',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[model_providers.e2e]',
      'name = "scripted model on 127.0.0.1"',
      `base_url = "${serverUrl}/v1"`,
      'wire_api = "responses"',
      'env_key = "E2E_MODEL_KEY"',
      '',
    ].join('\n'),
  );
  return file;
}

/** The model's function calls and the outputs Codex sent back, from the recorded requests. */
function callsAndOutputs(requests) {
  const calls = new Map();
  const outputs = new Map();
  for (const request of requests) {
    for (const item of request.body?.input ?? []) {
      if (item?.type === 'function_call') calls.set(item.call_id, item);
      if (item?.type === 'function_call_output')
        outputs.set(item.call_id, typeof item.output === 'string' ? item.output : JSON.stringify(item.output));
    }
  }
  return { calls: [...calls.values()], outputs };
}

describe('Codex CLI (real CLI) with agentgov init codex', function () {
  this.timeout(600_000);
  let server;
  let codex;
  let run;

  before(async () => {
    codex = agentBin(AGENT);
    server = await startModelServer({ protocols: [responses] });
  });
  after(() => server?.close());
  beforeEach(async () => {
    run = createRun(AGENT);
    // codex is on the person's PATH, as after `npm install -g @openai/codex`
    run.env.PATH = `${dirname(codex).replace(/@openai\/codex\/bin$/, '.bin')}:${run.env.PATH}`;
    run.env.E2E_MODEL_KEY = 'not-a-key';
    await runProcess('git', ['init', '-q'], { cwd: run.project, env: run.env });
    writeCodexConfig(run, server.url);
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed') removeRun(run);
  });

  const runCodex = (args) => runAgent(run, codex, ['exec', ...args, 'tidy up this project'], { timeoutMs: 180_000 });

  it('doctor fails until the project and the hook are trusted, Codex skips the hook meanwhile; then rm -rf ~ is blocked, ls runs, replay records each call once', async () => {
    const init = await agentgov(run, ['init', AGENT, '--project', run.project]);
    assert.equal(init.code, 0, describeRun(init));
    assert.match(init.stdout, /NOT ACTIVE YET: codex will not call this hook until you:/);
    assert.match(init.stdout, /answer that you trust this folder/);
    assert.match(init.stdout, /type \/hooks, review the agentgov PreToolUse hook/);
    assert.doesNotMatch(init.stdout, /verified/);

    let doctor = await agentgov(run, ['doctor', '--project', run.project]);
    assert.equal(doctor.code, 1, describeRun(doctor));
    assert.match(doctor.stdout, /^FAIL codex \(project\)/m);
    assert.match(doctor.stdout, /FAIL project trusted: .* has no trust entry for /);
    assert.match(doctor.stdout, /→ start `codex` in .* answer that you trust this folder/);

    // The person trusts the folder the way Codex's own message says for headless use: `codex exec --trust`.
    server.setScript({ calls: [{ kind: 'shell', command: 'ls' }], text: 'done' });
    const first = await runCodex(['--trust']);
    assert.equal(first.code, 0, describeRun(first));
    assert.match(readFileSync(join(run.home, '.codex', 'config.toml'), 'utf8'), /trust_level = "trusted"/);
    assert.deepEqual(gateJournal(run), [], 'Codex ran the call without the unreviewed hook');
    doctor = await agentgov(run, ['doctor', '--project', run.project]);
    assert.equal(doctor.code, 1, describeRun(doctor));
    assert.match(doctor.stdout, /ok {3}project trusted/);
    assert.match(
      doctor.stdout,
      /FAIL hook reviewed and trusted in Codex: Codex lists the agentgov hook of .*hooks\.json as untrusted/,
    );
    assert.match(doctor.stdout, /→ start `codex` in .*type \/hooks/);

    // The person reviews the hook in /hooks and trusts it: exactly agentgov's command, nothing else.
    const command = JSON.parse(readFileSync(join(run.project, '.codex', 'hooks.json'), 'utf8')).hooks.PreToolUse[0]
      .hooks[0].command;
    const trusted = await trustReviewedHooks(codex, run.project, run.env, (hook) => hook.command === command);
    assert.equal(trusted.length, 1);
    doctor = await agentgov(run, ['doctor', '--project', run.project]);
    assert.equal(doctor.code, 0, describeRun(doctor));
    assert.match(doctor.stdout, /^ok {3}codex \(project\)/m);

    // Codex's own attempt at rm -rf ~, with its approvals and sandbox off: the hook alone stands in the way.
    server.setScript({
      calls: [
        { kind: 'shell', command: 'rm -rf ~' },
        { kind: 'shell', command: 'ls' },
      ],
      text: 'done',
    });
    const result = await runCodex(['--dangerously-bypass-approvals-and-sandbox']);
    assert.equal(result.code, 0, describeRun(result));
    assert.ok(existsSync(run.marker), `the home was wiped: ${describeRun(result)}`);
    const { calls, outputs } = callsAndOutputs(server.requests);
    assert.deepEqual(
      calls.map((c) => JSON.parse(c.arguments).cmd ?? JSON.parse(c.arguments).command),
      ['rm -rf ~', 'ls'],
    );
    assert.match(
      outputs.get(calls[0].call_id),
      /blocked by PreToolUse hook: agentgov: deny \(destructive_delete_critical/,
    );
    assert.match(outputs.get(calls[1].call_id), /README\.md/);

    const journal = gateJournal(run);
    assert.deepEqual(journal.map((e) => [e.event.arguments.command, e.verdict.decision]).sort(), [
      ['ls', 'allow'],
      ['rm -rf ~', 'deny'],
    ]);
    const sessionId = journal[0].event.session_id;

    // watch records the journal and the rollouts; replay of this session's rollout adds nothing
    await watchOnce(run);
    const rollouts = findFiles(join(run.home, '.codex', 'sessions'), new RegExp(`^rollout-.*${sessionId}\\.jsonl$`));
    assert.equal(rollouts.length, 1);
    const replayed = await replay(run, rollouts[0], AGENT);
    assert.deepEqual(
      replayed.records.map((r) => [r.event.id, r.event.canonical_tool, r.event.arguments.command, r.assessment.action]),
      calls.map((c, i) => [`codex:${sessionId}:${c.call_id}`, 'shell', ['rm -rf ~', 'ls'][i], ['deny', 'allow'][i]]),
    );
    assert.match(replayed.summary, /0 new event\(s\), 2 already recorded/);
    // the ls of the trust run (no hook) and the two calls of this one: three calls, three events
    assert.equal((await status(run)).events, 3);
  });

  it('runs ls without a prompt in its default headless mode; with watch running the call is one event (gate, rollout, replay)', async () => {
    assert.equal((await agentgov(run, ['init', AGENT, '--project', run.project])).code, 0);
    server.setScript({ calls: [], text: 'hello' });
    assert.equal((await runCodex(['--trust'])).code, 0);
    const listed = await codexHooks(codex, run.project, run.env);
    assert.deepEqual(
      listed.map((h) => [h.eventName, h.trustStatus]),
      [['preToolUse', 'untrusted']],
    );
    await trustReviewedHooks(codex, run.project, run.env, (hook) =>
      hook.command?.includes('agentgov.js gate --stdin --format codex'),
    );
    const watch = await startWatch(run);
    let result;
    try {
      server.setScript({ calls: [{ kind: 'shell', command: 'ls' }], text: 'done' });
      result = await runCodex([]);
      assert.equal(result.code, 0, describeRun(result));
      await new Promise((resolve) => setTimeout(resolve, 3000));
    } finally {
      assert.equal(await watch.stop(), 0, watch.output());
    }
    const { calls, outputs } = callsAndOutputs(server.requests);
    assert.match(outputs.get(calls[0].call_id), /README\.md/);
    assert.deepEqual(gateJournal(run), [], 'watch answered the hook and recorded the decision itself');
    const rollouts = findFiles(join(run.home, '.codex', 'sessions'), /^rollout-.*\.jsonl$/);
    const replayed = await replay(run, rollouts.at(-1), AGENT);
    assert.match(replayed.summary, /0 new event\(s\), 1 already recorded/);
    assert.deepEqual(
      replayed.records.map((r) => [r.event.arguments.command, r.assessment.action]),
      [['ls', 'allow']],
    );
    assert.equal((await status(run)).events, 1);
  });

  it('init codex --mcp: Codex waits for agentgov (required), lists its tools from the first request on, recon gets an answer, files where AGENTGOV_HOME said', async () => {
    writeSampleProject(run.project);
    const agentgovHome = join(run.home, '.local', 'share', 'agentgov');
    const init = await agentgov(run, ['init', AGENT, '--mcp', '--project', run.project], {
      env: { AGENTGOV_HOME: agentgovHome },
    });
    assert.equal(init.code, 0, describeRun(init));
    assert.match(readFileSync(join(run.project, '.codex', 'config.toml'), 'utf8'), /required = true/);
    assert.match(
      init.stdout,
      /for codex to use it, you still have to:\n {2}1\. Codex reads .*config\.toml only in a trusted project/,
    );

    server.setScript({ calls: [{ kind: 'mcp', tool: 'recon', arguments: { task: RECON_TASK } }], text: 'done' });
    // Codex reads a project's .codex/config.toml only once the folder is trusted: the person's --trust
    const result = await runCodex(['--trust']);
    assert.equal(result.code, 0, describeRun(result));
    // Codex defers MCP tools: its first request names the agentgov namespace (the server is up before the
    // first turn), and the model's tool_search gets agentgov's tools back
    const first = server.requests.find((r) => r.path.startsWith('/v1/responses'));
    assert.match(
      JSON.stringify(first?.body?.input ?? []),
      /Deferred tool namespaces:.*- mcp__agentgov: agentgov: code intelligence/,
    );
    const searched = server.requests.flatMap((r) =>
      (r.body?.input ?? []).filter((i) => i?.type === 'tool_search_output').flatMap((i) => i.tools ?? []),
    );
    const names = searched.filter((t) => t.name === 'mcp__agentgov').flatMap((t) => (t.tools ?? []).map((u) => u.name));
    // Which of agentgov's tools Codex's own search ranks into its few results depends on Codex's ranking of
    // the descriptions; that agentgov's tools come back, recon among them, does not.
    assert.ok(names.includes('recon'), `tool_search did not list agentgov's recon: ${names.join(', ')}`);
    assert.ok(new Set(names).size >= 4, `tool_search listed too few of agentgov's tools: ${names.join(', ')}`);
    const { calls, outputs } = callsAndOutputs(server.requests);
    const recon = calls.find((c) => c.name === 'recon' || c.name.endsWith('__recon'));
    assert.ok(recon, `the model called recon: ${JSON.stringify(server.requests.map((r) => r.error ?? r.status))}`);
    assert.match(outputs.get(recon.call_id) ?? '', /fetchWithRetry/, describeRun(result));
    assert.match(outputs.get(recon.call_id), /src\/retry\.ts/);
    const logs = existsSync(join(agentgovHome, 'logs')) ? readdirSync(join(agentgovHome, 'logs')) : [];
    assert.ok(
      logs.some((f) => f.startsWith('serve-')),
      `the server Codex started did not log under ${agentgovHome}`,
    );
    assert.ok(!existsSync(join(run.home, '.agentgov', 'logs')), 'the server wrote to the default home');
  });
});
