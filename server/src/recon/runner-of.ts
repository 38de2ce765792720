import type { PluginHost } from '@agentgov/core';
import { RetrievalRunner } from './retrieval.js';

const runners = new WeakMap<PluginHost, RetrievalRunner>();

/** The one retrieval runner of a plugin host: its taps on the `retrieve` hook are made once. */
export function runnerOf(host: PluginHost): RetrievalRunner {
  let runner = runners.get(host);
  if (!runner) {
    runner = new RetrievalRunner(host.hooks, host.registries.retrievers);
    runners.set(host, runner);
  }
  return runner;
}
