import { expect } from 'chai';
import { hookAnswer, type GateOutcome, type HookAnswerWords } from '../../src/contracts/gate-hook.js';

const outcome = (decision: 'allow' | 'ask' | 'deny', extra: Partial<GateOutcome> = {}): GateOutcome => ({
  verdict: { decision, reason: `because ${decision}`, decided_by: 'test' },
  ...extra,
});
const words: HookAnswerWords = {
  stop: (decision, message) => ({ decision, message }),
  warn: (message) => ({ note: message }),
};

describe("hookAnswer: a verdict in a format's words", function () {
  it("answers ask and deny with the format's decision, the notes after the reason", function () {
    expect(hookAnswer(outcome('deny', { notes: ['project config ignored'] }), words)).to.deep.equal({
      stdout: '{"decision":"deny","message":"because deny project config ignored"}\n',
      exitCode: 0,
    });
    expect(JSON.parse(hookAnswer(outcome('ask'), words).stdout)).to.deep.equal({
      decision: 'ask',
      message: 'because ask',
    });
  });

  it('answers a warning, or an allowed call with notes, with the warning words when the format has them', function () {
    const warned = outcome('allow', { assessment: { action: 'warn' } as GateOutcome['assessment'] });
    expect(JSON.parse(hookAnswer(warned, words).stdout)).to.deep.equal({ note: 'because allow' });
    expect(JSON.parse(hookAnswer(outcome('allow', { notes: ['n'] }), words).stdout)).to.deep.equal({
      note: 'because allow n',
    });
    expect(hookAnswer(warned, { stop: words.stop }).stdout).to.equal('');
  });

  it("prints nothing for an allowed call, or the format's own allow answer", function () {
    expect(hookAnswer(outcome('allow'), words)).to.deep.equal({ stdout: '', exitCode: 0 });
    expect(hookAnswer(outcome('allow'), { ...words, allow: {} }).stdout).to.equal('{}\n');
  });
});
