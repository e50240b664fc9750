/** A screen's code or stylesheet that failed to load; the error screen offers a reload for both. */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
  readonly code: 'ChunkLoadError' | 'CSS_CHUNK_LOAD_FAILED';
  constructor(message: string, code: ChunkLoadError['code'], options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof ChunkLoadError || (error instanceof Error && error.name === 'ChunkLoadError');
}
