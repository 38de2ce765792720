import { expect } from 'chai';
import type { Briefing } from '../../src/scout/briefing.js';
import type { CyclesResult } from '../../src/tools/graph-cycles.js';
import { removeRepos } from '../index/fixture-repos.js';
import { serveFixture, structured } from './scout-fixture.js';

/**
 * A Python package with one import cycle that runs when the modules load (app ↔ ctx), one that only
 * a type checker follows (wrappers → helpers under `if TYPE_CHECKING:`), and a five-file ring that
 * closes through an import inside a function body (ring5 → ring1), as flask's app/ctx/globals do.
 */
function deferredRepo(closeRingAtLoad: boolean): Record<string, string> {
  const ring = (n: number) => `from pkg.ring${n + 1} import f${n + 1}\n\n\ndef f${n}():\n    return f${n + 1}()\n`;
  return {
    'pkg/__init__.py': '',
    'pkg/app.py': 'from pkg.ctx import Ctx\n\n\nclass App:\n    ctx = Ctx\n',
    'pkg/ctx.py': 'from pkg.app import App\n\n\nclass Ctx:\n    app = App\n',
    'pkg/wrappers.py':
      'from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg.helpers import helper\n\n\nclass Response:\n    pass\n',
    'pkg/helpers.py': 'from pkg.wrappers import Response\n\n\ndef helper():\n    return Response()\n',
    'pkg/ring1.py': ring(1),
    'pkg/ring2.py': ring(2),
    'pkg/ring3.py': ring(3),
    'pkg/ring4.py': ring(4),
    'pkg/ring5.py': closeRingAtLoad
      ? 'from pkg.ring1 import f1\n\n\ndef f5():\n    return f1()\n'
      : 'def f5():\n    from pkg.ring1 import f1\n    return f1()\n',
  };
}

describe('deferred and type-only Python imports in graph_cycles and recon_scout', () => {
  after(removeRepos);

  it('lists cycles closed only through TYPE_CHECKING or function-body imports apart, and does not warn of them', async () => {
    const served = await serveFixture(deferredRepo(false));
    try {
      const cycles = structured<CyclesResult>(await served.call('graph_cycles', {}));
      expect(cycles.cycles.map((c) => c.members)).to.deep.equal([['pkg/app.py', 'pkg/ctx.py']]);
      expect(cycles.deferred_cycles.map((c) => c.members)).to.deep.equal([
        ['pkg/ring1.py', 'pkg/ring2.py', 'pkg/ring3.py', 'pkg/ring4.py', 'pkg/ring5.py'],
        ['pkg/helpers.py', 'pkg/wrappers.py'],
      ]);
      expect(cycles.deferred_cycles[0]!.chain).to.deep.equal([
        'pkg/ring1.py',
        'pkg/ring2.py',
        'pkg/ring3.py',
        'pkg/ring4.py',
        'pkg/ring5.py',
        'pkg/ring1.py',
      ]);
      expect(cycles.summary).to.deep.equal({ cycles: 1, nodes_in_cycles: 2, largest_sizes: [2], deferred_cycles: 2 });
      expect(cycles.graph.deferred_edges).to.equal(2);
      expect(served.index.imports('pkg/ring5.py').map((edge) => [edge.to_path, edge.kind])).to.deep.equal([
        ['pkg/ring1.py', 'deferred'],
      ]);
      expect(served.index.imports('pkg/wrappers.py').map((edge) => [edge.to_path, edge.kind])).to.deep.equal([
        [null, 'python'],
        ['pkg/helpers.py', 'type-only'],
      ]);

      const result = await served.call('recon_scout', {});
      const briefing = structured<Briefing>(result);
      expect(briefing).to.not.have.property('warning');
      expect(briefing.cycles).to.deep.include({ total: 1, shown: 1, deferred: { total: 2, largest: 5 } });
      expect(briefing.context).to.match(/; 1 import cycle \(2 more only through deferred or type-only imports\)\.$/);
      expect((result.content as { text: string }[])[0]!.text).to.contain(
        '+ 2 closed only through deferred or type-only imports (largest 5 files; graph_cycles lists them)',
      );
    } finally {
      await served.close();
    }
  });

  it('the same ring closed by a module-level import is a load-time cycle and a warning', async () => {
    const served = await serveFixture(deferredRepo(true));
    try {
      const cycles = structured<CyclesResult>(await served.call('graph_cycles', {}));
      expect(cycles.cycles.map((c) => c.size)).to.deep.equal([5, 2]);
      expect(cycles.deferred_cycles.map((c) => c.size)).to.deep.equal([2]);
      const briefing = structured<Briefing>(await served.call('recon_scout', {}));
      expect(briefing.warning).to.match(/^an import cycle of 5\+ files \(largest: 5 files, pkg\/ring1\.py → /);
    } finally {
      await served.close();
    }
  });
});
