import { expect } from 'chai';
import { assertBindAllowed, isLoopback, parseListen } from '../../src/score-api/listen.js';

describe('score-api/listen', () => {
  const addresses: [string, { host: string; port: number }][] = [
    ['localhost:7331', { host: 'localhost', port: 7331 }],
    ['127.0.0.1:0', { host: '127.0.0.1', port: 0 }],
    ['[::1]:8080', { host: '::1', port: 8080 }],
    [':9000', { host: 'localhost', port: 9000 }],
    ['0.0.0.0:80', { host: '0.0.0.0', port: 80 }],
  ];
  for (const [text, expected] of addresses)
    it(`parses ${text}`, () => expect(parseListen(text)).to.deep.equal(expected));

  for (const bad of ['localhost', 'localhost:', 'host:99999', 'a:b', '::1:80']) {
    it(`refuses '${bad}' as E_INVALID_ARGUMENT`, () =>
      expect(() => parseListen(bad))
        .to.throw()
        .with.property('code', 'E_INVALID_ARGUMENT'));
  }

  it('knows loopback addresses', () => {
    expect(['localhost', '127.0.0.1', '127.8.9.1', '::1'].every(isLoopback)).to.equal(true);
    expect(['0.0.0.0', '192.168.1.2', '::', 'example.com'].some(isLoopback)).to.equal(false);
  });

  it('refuses a non-loopback bind without a token, allows it with one', () => {
    expect(() => assertBindAllowed({ host: '0.0.0.0', port: 1 }, null))
      .to.throw()
      .with.property('code', 'E_SCORE_TOKEN_REQUIRED');
    expect(() => assertBindAllowed({ host: '0.0.0.0', port: 1 }, 't')).not.to.throw();
    expect(() => assertBindAllowed({ host: 'localhost', port: 1 }, null)).not.to.throw();
  });
});
