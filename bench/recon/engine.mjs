// recon over a base tree through the real pieces: the plugin host with the bundled plugins (language
// packs and retrievers), the repository index (stored in <tree>/.agentgov, so a tree is indexed once)
// and the recon pipeline of @agentgov/server.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WORK_DIR } from './trees.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
// Trees live inside this repository's (ignored) bench/.work: stop git from walking up to it, so the
// index sees each tree as the plain directory it is.
process.env.GIT_CEILING_DIRECTORIES = join(WORK_DIR, 'trees');

const core = await import(join(ROOT, 'core/dist/src/index.js'));
const { openRepositoryIndex } = await import(join(ROOT, 'server/dist/src/index/repository-index.js'));
const { parseQuery, MAX_TASK_CHARS } = await import(join(ROOT, 'server/dist/src/recon/query.js'));
const { runRecon } = await import(join(ROOT, 'server/dist/src/recon/recon.js'));
const { retrievalIndexOf } = await import(join(ROOT, 'server/dist/src/recon/retrieval-index.js'));
const { runnerOf } = await import(join(ROOT, 'server/dist/src/recon/runner-of.js'));
const { TEST_VOCABULARY } = await import(join(ROOT, 'server/dist/src/recon/priors.js'));

let hostPromise;
function host() {
  hostPromise ??= core.createPluginHost({
    loaded: core.loadConfig({ cwd: WORK_DIR }),
    bundled: core.bundledPluginsOf(join(ROOT, 'cli/package.json')),
    resolveFrom: [join(ROOT, 'cli')],
    host: 'server',
    logger: core.silentLogger,
  });
  return hostPromise;
}

/** A task as the server parses it (with the index's vocabulary), clipped to the size the recon tool accepts. */
function parse(task, view) {
  return parseQuery(task.length > MAX_TASK_CHARS ? task.slice(0, MAX_TASK_CHARS) : task, [], [], view);
}

export async function open(dir) {
  const h = await host();
  const started = performance.now();
  const index = await openRepositoryIndex({
    root: dir,
    languages: h.registries.languages.values(),
    logger: core.silentLogger,
  });
  await index.ready;
  const index_ms = performance.now() - started;
  const runner = runnerOf(h);
  let first = true;
  return {
    index_ms,
    /**
     * Runs recon; the first query of a tree also builds the retrievers' per-epoch caches, so it is timed separately
     * (cold) and re-run warm.
     */
    async query(task) {
      const query = parse(task, retrievalIndexOf(index));
      let t = performance.now();
      let result = await runRecon(query, runner, retrievalIndexOf(index));
      const cold_ms = performance.now() - t;
      let warm_ms = cold_ms;
      if (first) {
        first = false;
        t = performance.now();
        result = await runRecon(query, runner, retrievalIndexOf(index));
        warm_ms = performance.now() - t;
      }
      return { result, cold_ms, warm_ms, query };
    },
    /**
     * The raw candidate pool of a task (every retriever, expansion included) with the definitions it names: the input
     * of fusion.
     */
    async pool(task) {
      const view = retrievalIndexOf(index);
      const query = parse(task, view);
      const retrieval = await runner.retrieve(query, view);
      const defs = {};
      const pool = {};
      for (const [name, candidates] of retrieval.pool) {
        pool[name] = [...candidates.values()].map((c) => [c.def_uid, c.score, c.explicit ? 1 : 0]);
        for (const c of candidates.values()) {
          if (c.def_uid in defs) continue;
          const def = view.definition(c.def_uid);
          // What fusion, priors and cutoff read: no signatures or docstrings.
          defs[c.def_uid] = def
            ? {
                def_uid: def.def_uid,
                path: def.path,
                kind: def.kind,
                name: def.name,
                qualified_name: def.qualified_name,
                start_line: def.start_line,
                end_line: def.end_line,
              }
            : null;
        }
      }
      // The per-repository facts the priors read: file classes of the candidates' files, product vocabulary.
      const classes = {};
      for (const def of Object.values(defs))
        if (def && !(def.path in classes)) classes[def.path] = view.fileClass?.(def.path) ?? null;
      const productWords = TEST_VOCABULARY.filter((w) => view.isProductWord?.(w));
      const members = view.workspaceMembers?.() ?? [];
      return { query, pool, expand: [...retrieval.expand], defs, classes, productWords, members };
    },
    /** The retrieval view of the index (bench/answers asks it for the nearest names of an UNSAT answer). */
    view: () => retrievalIndexOf(index),
    close: () => index.close(),
  };
}
