// `node bench/index/run.mjs --scale`: the index on combined trees of the fetched public projects.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCombined, SCALE_PROJECTS } from './combined.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** Three sizes, each about twice the one before; `large` is every project (≥ 7,500 files). */
export const SIZES = {
  small: ['vue', 'sympy'],
  medium: ['vue', 'sympy', 'astropy', 'sphinx', 'click', 'requests'],
  large: SCALE_PROJECTS,
};

function scaleOnce(mode, dir, list, calls) {
  const out = execFileSync(process.execPath, [join(here, 'scale-once.mjs'), mode, dir, list, String(calls)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, GIT_CEILING_DIRECTORIES: dirname(dir) },
  });
  return JSON.parse(out.trim().split('\n').pop());
}

const s = (ms) => (ms / 1000).toFixed(2);

/** The middle value. */
const median = (values) => [...values].sort((a, b) => a - b)[(values.length - 1) >> 1];

/**
 * `values`: the bench's `calls` (recon calls on the largest tree), `sizes` (comma-separated) and `runs` (cold builds
 * and bare parses per size: the session's build and `runs − 1` more with its settings in fresh processes after it,
 * the parses interleaved; ×parse CPU is the ratio of the medians — one build of the large tree has read 26–32 CPU s
 * on a quiet machine minutes apart).
 */
export async function runScale(scratch, once, values) {
  const calls = Number(values.calls);
  const runs = Math.max(1, Number.parseInt(values.runs, 10) || 1);
  const rows = [];
  for (const size of values.sizes.split(',')) {
    const dir = makeCombined(`combined-${size}`, SIZES[size]);
    const list = join(scratch, `${size}.files`);
    // Recon calls on the largest tree only; the smaller ones are there for the stage times.
    const withCalls = size === 'large' ? calls : 0;
    const built = scaleOnce('build', dir, list, withCalls);
    const parse = once('parse', dir, list);
    const restart = withCalls > 0 ? scaleOnce('restart', dir, list, 10) : null;
    // After the restart, which reads what the session persisted: a cold build starts from nothing.
    const colds = [built.build];
    const parses = [parse];
    for (let run = 1; run < runs; run++) {
      colds.push(scaleOnce('cold', dir, list, 0));
      parses.push(once('parse', dir, list));
    }
    const coldMs = median(colds.map((run) => run.ms));
    const coldCpu = median(colds.map((run) => run.cpu_ms));
    const parseMs = median(parses.map((run) => run.ms));
    const parseCpu = median(parses.map((run) => run.cpu_ms));
    const p = built.build.phases;
    const per1k = (ms) => Math.round((ms / built.files) * 1000);
    const row = {
      size,
      projects: SIZES[size].join(' '),
      files: built.files,
      definitions: built.definitions,
      references: built.references,
      cold_ms: coldMs,
      cold_cpu_ms: coldCpu,
      files_per_s: Math.round((built.files / coldMs) * 1000),
      parse_ms: parseMs,
      parse_cpu_ms: parseCpu,
      cpu_ratio_to_parse: +(coldCpu / parseCpu).toFixed(2),
      ratio_to_parse: +(coldMs / parseMs).toFixed(2),
      runs_cold_cpu_ms: colds.map((run) => run.cpu_ms),
      runs_parse_cpu_ms: parses.map((run) => run.cpu_ms),
      stages_ms: {
        discover: p.parsing - (p.discovering ?? 0),
        parse_extract: p.resolving - p.parsing,
        imports: p.writing - p.resolving,
        resolve_write: p.ready - p.writing,
      },
      stages_per_1k_files_ms: {
        discover: per1k(p.parsing - (p.discovering ?? 0)),
        parse_extract: per1k(p.resolving - p.parsing),
        imports: per1k(p.writing - p.resolving),
        resolve_write: per1k(p.ready - p.writing),
      },
      stages_cpu_per_1k_files_ms: built.build.phases_cpu?.parsing
        ? (({ discovering = 0, parsing, resolving, writing, ready }) => ({
            discover: per1k(parsing - discovering),
            parse_extract: per1k(resolving - parsing),
            imports: per1k(writing - resolving),
            resolve_write: per1k(ready - writing),
          }))(built.build.phases_cpu)
        : null,
      peak_rss_mb: { build: built.build.peak_rss_mb, scout: built.scout.peak_rss_mb, recon: built.recon.peak_rss_mb },
      process_peak_rss_mb: built.peak_rss_mb,
      scout_first_ms: built.scout.first_ms,
      recon: built.recon,
      idle_rss_mb: built.idle?.rss_mb ?? null,
      index_db_mib: +(built.store.total / 1024 / 1024).toFixed(1),
      store_parts: built.store.parts,
      reopen_ms: restart?.reopen.ms ?? null,
      first_recon_after_restart_ms: restart?.first_recon_ms ?? null,
      next_recon_after_restart_ms: restart?.next_recon_ms ?? null,
      restart_peak_rss_mb: restart?.peak_rss_mb ?? null,
      load_average: loadavg()[0].toFixed(1),
    };
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  console.log(
    `\n| size | files | cold s (CPU s), median of ${runs} | files/s ` +
      `| parse s (CPU s), median of ${runs} | ×parse CPU ` +
      '| peak RSS MB build/scout/recon | RSS MB idle | index.db MiB | re-open ms | 1st recon ' +
      'after restart ms | recon p50/p95 ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.size} | ${r.files} | ${s(r.cold_ms)} (` +
        `${s(r.cold_cpu_ms)}) | ${r.files_per_s} | ` +
        `${s(r.parse_ms)} (${s(r.parse_cpu_ms)}) | ` +
        `${r.cpu_ratio_to_parse} | ${r.peak_rss_mb.build}/` +
        `${r.peak_rss_mb.scout}/${r.peak_rss_mb.recon} | ${r.idle_rss_mb ?? '–'} | ` +
        `${r.index_db_mib} | ${r.reopen_ms ?? '–'} | ` +
        `${r.first_recon_after_restart_ms ?? '–'} | ` +
        `${r.recon.calls ? `${r.recon.p50_ms}/${r.recon.p95_ms}` : '–'} |`,
    );
  console.log(
    '\nStage times per 1,000 files, ms: CPU of all threads (wall), each stage from the build progress phases:\n',
  );
  console.log('| size | files | discover | parse + extract | imports | resolve + write |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const t = r.stages_per_1k_files_ms;
    const c = r.stages_cpu_per_1k_files_ms ?? {};
    const cell = (k) => `${c[k] ?? '–'} (${t[k]})`;
    console.log(
      `| ${r.size} | ${r.files} | ${cell('discover')} | ` +
        `${cell('parse_extract')} | ${cell('imports')} | ` +
        `${cell('resolve_write')} |`,
    );
  }
  console.log(`\nreproduce: node bench/index/run.mjs ${process.argv.slice(2).join(' ')}`);
}
