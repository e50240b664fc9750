import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Database } from '../../db/database.ts';
import * as repo from './nodes.repo.ts';

/** A node that has not reported for this long is considered gone. */
export const NODE_STALE_MS = 30_000;
const HEARTBEAT_MS = 5_000;
const FORGET_AFTER_MS = 24 * 3600_000;

export interface NodeStatus {
  id: string;
  roles: string[];
  hostname: string;
  pid: number;
  startedAt: number;
  lastSeenAt: number;
  state: 'running' | 'stopped' | 'lost';
}

/**
 * Each Herald process registers itself and reports every few seconds, so operators (and the
 * tests of multi-process deployments) can see which processes with which roles are alive.
 */
export class NodesService {
  readonly id = randomUUID();
  private readonly database: Database;
  private timer: NodeJS.Timeout | undefined;

  constructor(database: Database) {
    this.database = database;
  }

  async register(roles: Iterable<string>, hostname = os.hostname()): Promise<void> {
    const now = Date.now();
    await repo.insertNode(this.database, {
      id: this.id,
      roles: [...roles].join(','),
      hostname,
      pid: process.pid,
      started_at: now,
      last_seen_at: now,
      stopped_at: null,
    });
    this.timer = setInterval(() => {
      repo.touchNode(this.database, this.id, Date.now()).catch(() => {});
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  async deregister(): Promise<void> {
    clearInterval(this.timer);
    await repo.stopNode(this.database, this.id, Date.now());
  }

  async list(now = Date.now()): Promise<NodeStatus[]> {
    const rows = await repo.listNodes(this.database);
    return rows.map((row) => ({
      id: row.id,
      roles: row.roles.split(','),
      hostname: row.hostname,
      pid: row.pid,
      startedAt: row.started_at,
      lastSeenAt: row.last_seen_at,
      state: row.stopped_at ? 'stopped' : now - row.last_seen_at > NODE_STALE_MS ? 'lost' : 'running',
    }));
  }

  forgetOld(now = Date.now()): Promise<number> {
    return repo.deleteNodesSeenBefore(this.database, now - FORGET_AFTER_MS);
  }
}
