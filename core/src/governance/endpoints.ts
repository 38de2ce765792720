import { desc, eq } from 'drizzle-orm';
import { gateEndpoints, type GovernanceOrm } from './schema.js';

export interface GateEndpoint {
  id: number;
  socket: string;
  token: string;
  pid: number;
  startedAt: string;
}

/** Where the running `watch`'s gate IPC server listens, so `gate` can find it. */
export class GateEndpointStore {
  constructor(private readonly orm: GovernanceOrm) {}

  /** Registers this run's endpoint; an earlier registration for the same socket (a crashed run) is replaced. */
  register(endpoint: { socket: string; token: string; pid: number }): GateEndpoint {
    return this.orm.transaction((tx) => {
      tx.delete(gateEndpoints).where(eq(gateEndpoints.socket, endpoint.socket)).run();
      return tx
        .insert(gateEndpoints)
        .values({ ...endpoint, startedAt: new Date().toISOString() })
        .returning()
        .get();
    });
  }

  /** Removes a registration (by the socket it named). */
  unregister(endpoint: { socket: string }): void {
    this.orm.delete(gateEndpoints).where(eq(gateEndpoints.socket, endpoint.socket)).run();
  }

  /** The most recently registered endpoint; the caller checks it is alive (pid, socket). */
  current(): GateEndpoint | undefined {
    return this.orm.select().from(gateEndpoints).orderBy(desc(gateEndpoints.id)).limit(1).get();
  }
}
