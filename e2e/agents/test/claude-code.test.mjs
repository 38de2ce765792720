/**
 * Claude Code (the real CLI from the npm registry, pinned in package-lock.json) after exactly the
 * README's flow, `agentgov init claude-code --project P`, headless (`claude -p`), its model the
 * scripted server on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin } from '../src/install-agents.mjs';
import { findFiles, gateJournal, replay, startWatch, status, watchOnce } from '../src/agentgov-record.mjs';
import { startModelServer } from '../src/model-server.mjs';
import anthropic from '../src/protocols/anthropic-messages.mjs';
import { agentgov, createRun, describeRun, removeRun, runAgent, runProcess } from '../src/run-agent.mjs';
import { RECON_TASK, writeSampleProject } from '../src/sample-project.mjs';

const AGENT = 'claude-code';

/** The tool results Claude Code sent back, by tool_use id, from the recorded requests. */
function toolResults(requests) {
  const results = new Map();
  for (const request of requests) {
    for (const message of request.body?.messages ?? []) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content) {
        if (block?.type !== 'tool_result') continue;
        const text =
          typeof block.content === 'string' ? block.content : (block.content ?? []).map((c) => c.text ?? '').join('');
        results.set(block.tool_use_id, { text, isError: block.is_error === true });
      }
    }
  }
  return results;
}

/** The tool_use blocks the model sent, in order (the ids the scripted server minted). */
function toolUses(requests) {
  const uses = new Map();
  for (const request of requests) {
    for (const message of request.body?.messages ?? []) {
      if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
      for (const block of message.content) if (block?.type === 'tool_use') uses.set(block.id, block);
    }
  }
  return [...uses.values()];
}

describe('Claude Code (real CLI) with agentgov init claude-code', function () {
  this.timeout(600_000);
  let server;
  let claude;
  let run;

  before(async () => {
    claude = agentBin(AGENT);
    server = await startModelServer({ protocols: [anthropic] });
  });
  after(() => server?.close());
  beforeEach(async () => {
    run = createRun(AGENT);
    await runProcess('git', ['init', '-q'], { cwd: run.project, env: run.env });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'passed') removeRun(run);
  });

  const claudeEnv = () => ({
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-not-a-key',
    IS_SANDBOX: '1',
  });
  const runClaude = (args) =>
    runAgent(run, claude, ['-p', 'tidy up this project', '--output-format', 'json', ...args], {
      env: claudeEnv(),
      timeoutMs: 180_000,
    });

  it('blocks its own rm -rf ~ with the hook init wrote, runs ls without a prompt, and replay records each call once', async () => {
    const init = await agentgov(run, ['init', AGENT, '--project', run.project]);
    assert.equal(init.code, 0, describeRun(init));
    const doctor = await agentgov(run, ['doctor', '--project', run.project]);
    assert.equal(doctor.code, 0, describeRun(doctor));
    assert.match(doctor.stdout, /^ok {3}claude-code \(local\)/m);

    server.setScript({
      calls: [
        { kind: 'shell', command: 'rm -rf ~' },
        { kind: 'shell', command: 'ls' },
      ],
      text: 'done',
    });
    const result = await runClaude([]);
    assert.equal(result.code, 0, describeRun(result));
    assert.ok(existsSync(run.marker), `the home was wiped: ${describeRun(result)}`);

    const uses = toolUses(server.requests);
    assert.deepEqual(
      uses.map((u) => u.input.command),
      ['rm -rf ~', 'ls'],
    );
    const results = toolResults(server.requests);
    const wipe = results.get(uses[0].id);
    assert.ok(wipe?.isError, `rm -rf ~ was not refused: ${JSON.stringify(wipe)}`);
    assert.match(wipe.text, /agentgov: deny \(destructive_delete_critical/);
    const list = results.get(uses[1].id);
    assert.equal(list?.isError, false, `ls did not run: ${JSON.stringify(list)}`);
    assert.match(list.text, /README\.md/);
    const output = JSON.parse(result.stdout);
    assert.deepEqual(
      output.permission_denials.map((d) => d.tool_input.command),
      ['rm -rf ~'],
      'only the wipe is refused, ls needs no prompt',
    );

    // the hook answered both calls (in process: no watch) and journaled them under Claude Code's tool_use ids
    const journal = gateJournal(run);
    assert.deepEqual(journal.map((e) => [e.event.arguments.command, e.verdict.decision]).sort(), [
      ['ls', 'allow'],
      ['rm -rf ~', 'deny'],
    ]);
    const sessionId = output.session_id;
    assert.deepEqual(journal.map((e) => e.event.id).sort(), uses.map((u) => `claude-code:${sessionId}:${u.id}`).sort());

    // watch records the journal and Claude Code's transcript; replay of the same transcript adds nothing
    await watchOnce(run);
    const transcripts = findFiles(join(run.home, '.claude', 'projects'), new RegExp(`^${sessionId}\\.jsonl$`));
    assert.equal(
      transcripts.length,
      1,
      `Claude Code's transcript: ${readdirSync(join(run.home, '.claude', 'projects')).join(', ')}`,
    );
    const replayed = await replay(run, transcripts[0], AGENT);
    assert.deepEqual(
      replayed.records.map((r) => [r.event.tool_name, r.event.arguments.command, r.assessment.action]),
      [
        ['Bash', 'rm -rf ~', 'deny'],
        ['Bash', 'ls', 'allow'],
      ],
    );
    assert.match(replayed.summary, /0 new event\(s\), 2 already recorded/);
    const db = await status(run);
    assert.equal(db.events, 2, `one event per call: ${JSON.stringify(db)}`);
    assert.equal(db.sessions, 1);
  });

  it('with watch running: the gate answers through it, watch tails the transcript, and a call is one event however it arrives', async () => {
    assert.equal((await agentgov(run, ['init', AGENT, '--project', run.project])).code, 0);
    const watch = await startWatch(run);
    let result;
    try {
      server.setScript({
        calls: [
          { kind: 'shell', command: 'rm -rf ~' },
          { kind: 'shell', command: 'ls' },
        ],
        text: 'done',
      });
      result = await runClaude([]);
      assert.equal(result.code, 0, describeRun(result));
      // watch tails Claude Code's transcript (a scan every second catches what file events miss)
      await new Promise((resolve) => setTimeout(resolve, 3000));
    } finally {
      assert.equal(await watch.stop(), 0, watch.output());
    }
    assert.ok(existsSync(run.marker));
    const uses = toolUses(server.requests);
    assert.match(
      toolResults(server.requests).get(uses[0].id)?.text ?? '',
      /agentgov: deny \(destructive_delete_critical/,
    );
    assert.doesNotMatch(
      toolResults(server.requests).get(uses[0].id)?.text ?? '',
      /assessed in process/,
      'watch answered, not the in-process fallback',
    );
    assert.deepEqual(gateJournal(run), [], 'watch recorded the decisions itself');
    const { session_id: sessionId } = JSON.parse(result.stdout);
    const [transcript] = findFiles(join(run.home, '.claude', 'projects'), new RegExp(`^${sessionId}\\.jsonl$`));
    const replayed = await replay(run, transcript, AGENT);
    assert.match(replayed.summary, /0 new event\(s\), 2 already recorded/);
    assert.deepEqual(
      replayed.records.map((r) => r.event.id),
      uses.map((u) => `claude-code:${sessionId}:${u.id}`),
    );
    assert.equal((await status(run)).events, 2);
  });

  it('blocks rm -rf ~ with the hook alone when Claude Code bypasses its own permission prompts', async () => {
    assert.equal((await agentgov(run, ['init', AGENT, '--project', run.project])).code, 0);
    server.setScript({ calls: [{ kind: 'shell', command: 'rm -rf ~' }], text: 'done' });
    const result = await runClaude(['--permission-mode', 'bypassPermissions']);
    assert.equal(result.code, 0, describeRun(result));
    assert.ok(existsSync(run.marker), `the home was wiped: ${describeRun(result)}`);
    const [use] = toolUses(server.requests);
    assert.match(toolResults(server.requests).get(use.id)?.text ?? '', /agentgov: deny \(destructive_delete_critical/);
  });

  it("init claude-code --mcp: Claude Code lists agentgov's tools and its model's recon call gets an answer, files where AGENTGOV_HOME said", async () => {
    writeSampleProject(run.project);
    // agentgov's files live elsewhere for this person; the agent is started without that variable
    const agentgovHome = join(run.home, '.local', 'share', 'agentgov');
    const init = await agentgov(run, ['init', AGENT, '--mcp', '--project', run.project], {
      env: { AGENTGOV_HOME: agentgovHome },
    });
    assert.equal(init.code, 0, describeRun(init));
    assert.match(
      init.stdout,
      /for claude-code to use it, you still have to:\n.*approve agentgov\n.*`--allowedTools mcp__agentgov`/,
    );
    const registered = JSON.parse(readFileSync(join(run.project, '.mcp.json'), 'utf8')).mcpServers.agentgov;
    assert.deepEqual(registered.env, { AGENTGOV_HOME: agentgovHome });

    server.setScript({ calls: [{ kind: 'mcp', tool: 'recon', arguments: { task: RECON_TASK } }], text: 'done' });
    // Claude Code asks before an MCP tool runs; headless, the person allows agentgov's tools by flag
    const result = await runClaude(['--allowedTools', 'mcp__agentgov']);
    assert.equal(result.code, 0, describeRun(result));
    const offered = new Set(server.requests.flatMap((r) => (r.body?.tools ?? []).map((t) => t.name)));
    const listed = server.requests.flatMap(
      (r) => JSON.stringify(r.body?.messages ?? []).match(/mcp__agentgov__[a-z_]+/g) ?? [],
    );
    const agentgovTools = new Set([...offered, ...listed].filter((n) => n.startsWith('mcp__agentgov__')));
    for (const tool of ['recon', 'recon_impact', 'blast_radius', 'checkpoint'])
      assert.ok(
        agentgovTools.has(`mcp__agentgov__${tool}`),
        `agentgov's ${tool} not listed: ${[...agentgovTools].join(', ')}`,
      );
    const recon = toolUses(server.requests).find((u) => u.name === 'mcp__agentgov__recon');
    assert.ok(recon, 'the model called recon');
    const answer = toolResults(server.requests).get(recon.id);
    assert.equal(answer?.isError, false, `recon failed: ${JSON.stringify(answer)}`);
    assert.match(answer.text, /fetchWithRetry/);
    assert.match(answer.text, /src\/retry\.ts/);
    const logs = existsSync(join(agentgovHome, 'logs')) ? readdirSync(join(agentgovHome, 'logs')) : [];
    assert.ok(
      logs.some((f) => f.startsWith('serve-')),
      `the server Claude Code started did not log under ${agentgovHome}`,
    );
    assert.ok(!existsSync(join(run.home, '.agentgov', 'logs')), 'the server wrote to the default home');
  });
});
