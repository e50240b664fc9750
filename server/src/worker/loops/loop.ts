import type { Core } from '../../compose.ts';

/**
 * A long-running loop of the worker role, for work that is claimed from the database rather
 * than handed out as queue jobs (the delivery engine: message_recipients is its queue).
 */
export interface LoopDefinition {
  name: string;
  start(core: Core): { close(timeoutMs: number): Promise<void> };
}
