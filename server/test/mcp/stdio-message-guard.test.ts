import { expect } from 'chai';
import { requestIdOf, StdioMessageGuard } from '../../src/mcp/stdio-message-guard.js';

/** Feeds `chunks` through a guard with a 64-byte limit; resolves to the lines passed and the oversized reports. */
async function run(chunks: string[]): Promise<{ passed: string[]; oversized: [number, string | number | null][] }> {
  const oversized: [number, string | number | null][] = [];
  const guard = new StdioMessageGuard(64, (bytes, id) => oversized.push([bytes, id]));
  const passed: string[] = [];
  guard.on('data', (line: Buffer) => passed.push(line.toString()));
  for (const chunk of chunks) guard.write(Buffer.from(chunk));
  guard.end();
  await new Promise((resolve) => guard.once('end', resolve));
  return { passed, oversized };
}

describe('mcp/stdio-message-guard', () => {
  it('passes whole lines only, however the input is split', async () => {
    const { passed, oversized } = await run(['{"id":1}\n{"i', 'd":2}\n{"id"', ':3}', '\n']);
    expect(passed).to.deep.equal(['{"id":1}\n', '{"id":2}\n', '{"id":3}\n']);
    expect(oversized).to.deep.equal([]);
  });

  it('drops a line over the limit, reports its size and id, and passes the next line whole', async () => {
    const big = `{"jsonrpc":"2.0","id":7,"method":"x","params":{"t":"${'a'.repeat(200)}"}}\n`;
    const { passed, oversized } = await run([big.slice(0, 30), big.slice(30, 150), `${big.slice(150)}{"id":8}\n`]);
    expect(passed).to.deep.equal(['{"id":8}\n']);
    expect(oversized).to.deep.equal([[big.length, 7]]);
  });

  it('finds the id at the end (the SDK client writes it last), and null when there is none', async () => {
    const last = `{"method":"tools/call","params":{"task":"${'b'.repeat(200)}"},"jsonrpc":"2.0","id":"req-9"}\n`;
    const none = `{"method":"notify","params":{"id":3,"t":"${'c'.repeat(200)}"}}\n`;
    const { oversized } = await run([last, none]);
    expect(oversized).to.deep.equal([
      [last.length, 'req-9'],
      [none.length, null],
    ]);
  });

  it('reads ids only where a JSON-RPC message keeps them', () => {
    expect(requestIdOf(Buffer.from('{"id":12,'))).to.equal(12);
    expect(requestIdOf(Buffer.from('{"params":{"id":12}'), Buffer.from('xx}}\n'))).to.equal(null);
    expect(requestIdOf(Buffer.from(''), Buffer.from('"x"},"id":-4}\n'))).to.equal(-4);
  });
});
