/**
 * The gate `watch` serves: the IPC server deciding through the pipeline, registered in system.db
 * and mirrored into `$AGENTGOV_HOME/gate.json` for the client (see gate/endpoint.ts). `stop`
 * undoes all three, in the reverse order, and waits for the emissions still running.
 */
import { runEmit, type GovernanceDb, type LoadedConfig, type Logger, type PluginHost } from '@agentgov/core';
import { createGateDecider } from '../gate/decide.js';
import { ensurePrivateHome, gateSocketPath, removeEndpointFile, writeEndpointFile } from '../gate/endpoint.js';
import { configFilesKey } from '../gate/config-file.js';
import { GateServer, newGateToken } from '../gate/server.js';
import type { Pipeline } from '../pipeline/pipeline.js';

export interface LiveGate {
  socket: string;
  server: GateServer;
  stop(): Promise<void>;
}

export async function startLiveGate(options: {
  host: PluginHost;
  loaded: LoadedConfig;
  db: GovernanceDb;
  pipeline: Pipeline;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
}): Promise<LiveGate> {
  const { host, loaded, db, pipeline, logger } = options;
  const env = options.env ?? process.env;
  ensurePrivateHome(env);
  const socket = gateSocketPath(env);
  const token = newGateToken();
  const decider = createGateDecider({
    assess: (event) => pipeline.assess(event),
    gateHook: (event, assessment) => host.hooks.gate.promise(event, assessment),
    record: (decision) => db.recordGateDecision(decision),
    emit: async (record) => {
      for (const failure of await runEmit(host.hooks, record))
        logger.warn(`sink '${failure.sink}' failed on a gate decision: ${failure.message}`);
    },
    defaultCwd: process.cwd(),
    timeout: { ms: loaded.config.gate.timeout_ms, onUnavailable: loaded.config.gate.on_unavailable },
  });
  const server = new GateServer({
    socketPath: socket,
    token,
    decide: (input, context) => decider.decide(input, context),
    logger: logger.child('gate'),
  });
  await server.listen();
  try {
    db.registerGateEndpoint({ socket, token, pid: process.pid });
    writeEndpointFile(
      {
        socket,
        token,
        pid: process.pid,
        started_at: new Date().toISOString(),
        config_file: configFilesKey(loaded.layers?.map((layer) => layer.file) ?? [loaded.file]),
        gate: loaded.config.gate,
      },
      env,
    );
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    socket,
    server,
    async stop() {
      removeEndpointFile(token, env);
      try {
        db.unregisterGateEndpoint({ socket });
      } finally {
        await server.close();
        await decider.drain();
      }
    },
  };
}
