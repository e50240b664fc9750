import type { ComponentType } from 'react';
import { ChunkLoadError } from '../infra/chunk-load-error.ts';

/**
 * Every screen module under pages/, found by Vite at build time and loaded on first visit, one
 * chunk per module: the route table names a module (`data/SendDataPage`) and never imports it,
 * which keeps the table readable by Node. The router loads a screen in the route's loader, next
 * to the guard, so a failure reaches the route's error boundary like any loader error (a failed
 * `lazy` import left the page blank with React Router 8.5) and the progress bar covers it. A module that takes longer than the chunk load timeout
 * (console-spec §9), or fails, becomes a ChunkLoadError; a stylesheet that fails becomes
 * CSS_CHUNK_LOAD_FAILED, so the error screen can offer a reload for both.
 */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

type ScreenModule = { default: ComponentType };

const modules = import.meta.glob<ScreenModule>('../pages/**/*Page.tsx');

function asChunkError(page: string, error: unknown): ChunkLoadError {
  const message = error instanceof Error ? error.message : String(error);
  const css = /css/i.test(message);
  return new ChunkLoadError(
    `loading the screen ${page} failed: ${message}`,
    css ? 'CSS_CHUNK_LOAD_FAILED' : 'ChunkLoadError',
    {
      cause: error,
    },
  );
}

const loaded = new Map<string, ComponentType>();

/** A screen that `loadScreen` has already loaded (the route renders it after its loader). */
export function loadedScreen(page: string): ComponentType | undefined {
  return loaded.get(page);
}

export async function loadScreen(page: string): Promise<ComponentType> {
  const done = loaded.get(page);
  if (done) return done;
  const load = modules[`../pages/${page}.tsx`];
  if (!load) throw new Error(`the route table names ${page}, which is not a module under src/pages`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHUNK_LOAD_TIMEOUT_MS);
  });
  try {
    const screen = (await Promise.race([load(), timeout])).default;
    loaded.set(page, screen);
    return screen;
  } catch (error) {
    throw asChunkError(page, error);
  } finally {
    clearTimeout(timer);
  }
}
